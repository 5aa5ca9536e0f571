#pragma once
// The contract between integrators and the systems they advance.
//
//   M a = f(t, x, v),   M diagonal (masses and moments of inertia).
//
// A system may carry history between steps (tangential springs of a DEM contact in the
// "traditional" update). Its force() may compute trial history values from the (t, x, v) it is
// given; accept_step() commits those of the most recent force() call. An integrator calls
// accept_step() exactly once at the end of every step. history()/set_history() expose that
// state so that the amplification matrix of a step can include it.
#include "dtcrit/core/types.hpp"

namespace dtcrit {

class MechanicalSystem {
 public:
  virtual ~MechanicalSystem() = default;

  // Number of generalised coordinates.
  virtual Index dofs() const = 0;
  // Diagonal of the generalised mass matrix.
  virtual const Vector& mass() const = 0;
  // Total generalised force (contacts, walls, gravity, external) at time t.
  virtual void force(double t, const Vector& x, const Vector& v, Vector& f) = 0;
  // Tangent operators for implicit solves: K = -df/dx and C = -df/dv at (t, x, v).
  // A symmetric approximation is allowed (the Newton iteration then converges more slowly).
  virtual void tangent(double t, const Vector& x, const Vector& v, SparseMatrix& K, SparseMatrix& C) = 0;
  // C alone, equal to tangent()'s C to the last bit (it may store explicit zeros where tangent()
  // stores none): for the schemes whose Newton matrix weights K by zero (central difference,
  // implicit-damping velocity Verlet). The default calls tangent(); systems where K costs as much
  // as C override it.
  virtual void damping(double t, const Vector& x, const Vector& v, SparseMatrix& C);
  // End of a step: commit the history of the most recent force() call.
  virtual void accept_step() {}
  // History carried between steps (empty for a memoryless system).
  virtual Vector history() const { return {}; }
  virtual void set_history(const Vector& /*h*/) {}
  // Total energy where the system defines one (kinetic + elastic); NaN otherwise.
  virtual double energy(const Vector& x, const Vector& v) const;
};

}  // namespace dtcrit
