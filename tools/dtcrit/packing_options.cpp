#include "packing_options.hpp"

namespace dtcrit::cli {

void add_packing_request_options(CLI::App* cmd, packing::PackingRequest& o) {
  cmd->add_option("--lattice", o.lattice, "regular lattice: square, hex (2D discs), sc, bcc, fcc (3D spheres)");
  cmd->add_option("--n", o.n, "lattice unit cells per side (square, sc: 1 particle per cell; hex, bcc: 2; fcc: 4)");
  cmd->add_option("--lammps-data", o.data_file,
                  "LAMMPS data file (write_data, atom_style sphere); with --lammps-input, the state the script's "
                  "physics is applied to (instead of its read_data)");
  cmd->add_option("--lammps-dump", o.dump_file, "LAMMPS text dump with radius (or diameter) and positions; last snapshot");
  cmd->add_option("--lammps-input", o.lammps_input,
                  "your LAMMPS input script, unchanged (units si, cgs, micro, nano or lj): units, boundary, "
                  "pair_style/pair_coeff per type, fix wall/gran planes and wall/gran/region regions, timestep, fix nve/sphere at "
                  "its last run (--lammps-run N: another); the "
                  "particles from its read_data or --lammps-data; answers whether its timestep is safe");
  cmd->add_option("--lammps-restart", o.lammps_restart,
                  "a LAMMPS binary restart as the state, instead of --lammps-data: converted by the installed lmp "
                  "(lmp -restart2data); contact histories are not in it (give contact dumps)");
  cmd->add_option("--lammps-run", o.lammps_run,
                  "with --lammps-input: take the physics in effect at the script's N-th run command (default: the "
                  "last) [-]");
  cmd->add_flag("--run-in-lammps", o.run_in_lammps,
                "with --lammps-input: run the script as it is in the installed lmp (in a private copy of its folder; "
                "nothing is written beside it) and analyse the state at its end, with its pair contacts' histories: "
                "for scripts that make their particles themselves (create_box, fix pour)");
  cmd->add_option("--lammps-contacts", o.lammps_contacts,
                  "contact histories: a local dump of compute property/local patom1 patom2 + compute pair/local dist "
                  "force p1 p2 p3 [p5 p6 p7], or a per-atom dump of fix wall/gran ... contacts (f_ID[1..8]); repeatable");
  cmd->add_option("--radius", o.radius, "lattice particle radius [m]")->capture_default_str();
  cmd->add_option("--density", o.density, "lattice density, or density for a dump without a mass column [kg/m^3]")
      ->capture_default_str();
  cmd->add_option("--compression", o.compression,
                  "lattice: compression c [-]: nearest-neighbour distance 2r(1 - c), so every contact overlaps by 2rc")
      ->capture_default_str();
  cmd->add_option("--radius-spread", o.radius_spread, "lattice: radius spread s [-], radii r(1 + s U(-1,1)) (polydisperse)")
      ->capture_default_str();
  cmd->add_option("--seed", o.seed, "seed of --radius-spread")->capture_default_str();
  cmd->add_option("--dimension", o.dimension, "files: 2 (discs, z dropped) or 3")->capture_default_str();
  cmd->add_flag("--disc", o.disc,
                "2D bodies as discs: m = rho pi r^2, I = m r^2 / 2 (LAMMPS set density/disc, fix nve/sphere disc); "
                "default: LAMMPS' sphere mass and inertia");
  auto* lammps_opt = cmd->add_option("--lammps-pair", o.lammps_pair,
                  "the contact law in LAMMPS' syntax instead of --kn ...: \"gran/hertz/history 1e9 NULL 1e4 NULL 0.5 "
                  "1\" or \"granular hertz/material 7e10 0.3 0.3 tangential mindlin NULL 1.0 0.5 rolling sds 1e3 50 "
                  "0.3\"; linearised at each contact's overlap");
  cmd->add_flag("--geometric-stiffness", o.geometric_stiffness,
                "add the turning of each contact normal under its normal force (-F_n/|x_i - x_j| across the normal)");
  auto* kn_opt = cmd->add_option("--kn", o.kn, "normal stiffness k_n [N/m] (LAMMPS gran/hooke/history)");
  cmd->add_option("--hertz-mindlin", o.hertz_mindlin,
                  "Hertz-Mindlin as EDEM and LIGGGHTS define it, E=PA,nu=NU,e=RESTITUTION,mu=MU (instead of --kn ... "
                  "or --lammps-pair); linearised at each contact's overlap")
      ->excludes(lammps_opt)
      ->excludes(kn_opt);
  cmd->add_option("--kt", o.kt, "tangential stiffness k_t [N/m]");
  cmd->add_option("--kt-ratio", o.kt_ratio, "tangential stiffness as a ratio k_t / k_n [-] (instead of --kt)");
  cmd->add_option("--gamma-n", o.gamma_n, "normal damping per unit effective mass [1/s]: c_n = m_eff gamma_n (default 0)");
  cmd->add_option("--gamma-t", o.gamma_t, "tangential damping per unit effective mass [1/s] (default gamma_n / 2, "
                                           "as LAMMPS' gran/hooke/history with NULL)");
  cmd->add_option("--type-law", o.type_laws,
                  "law of one pair of atom types, e.g. types=1-2,kn=2e5,kt=1e5 (other keys: gamma_n, gamma_t; "
                  "keys not given are the base law's); repeatable");
  cmd->add_option("--periodic", o.periodic,
                  "periodic axes, e.g. x,y, or none (lattices default to all, data files to none, dumps to BOX BOUNDS)");
  cmd->add_option("--wall", o.walls,
                  "plane wall, e.g. z=0 (faces the packing) or z=0,kn=1e6,kt=5e5; repeatable");
  cmd->add_option("--gap-tolerance", o.gap_tolerance,
                  "relative gap tol [-]: contact when |x_i - x_j| < (r_i + r_j)(1 + tol) (default 1e-9 for lattices, 0 for files)");
  cmd->add_flag("--no-rotation", o.no_rotation, "translational degrees of freedom only");
  cmd->add_flag("--box-walls", o.box_walls,
                "lattice with --periodic none: six (four) walls pressed in by the compression overlap 2 r c, so that a "
                "compressed sc or square lattice is in equilibrium");
  cmd->add_option("--rtol", o.rtol,
                  "relative precision [-] of every limit: each exact limit h_crit comes with h_low, h_crit - h_low <= "
                  "rtol h_crit (the eigensolvers stop there; 1e-12 for the last digits)")
      ->capture_default_str();
  cmd->add_option("--lanczos-tol", o.lanczos_tol,
                  "relative residual tolerance [-] of omega_max's iterative solve (default: from --rtol, (1 + rtol)^2 - 1)");
  cmd->add_option("--eigensolver", o.eigensolver,
                  "omega_max by: auto (dense up to 600 dofs, else lanczos; the distributed build: the three-term "
                  "Lanczos recurrence over the ranks), dense, lanczos (three-term, matrix-free), spectra (Spectra's "
                  "restarted Lanczos, matrix-free), slepc (distributed build, mpirun -np P: SLEPc Krylov-Schur over "
                  "ranks); in the distributed build dense, lanczos and spectra run serially on rank 0")
      ->capture_default_str();
  cmd->add_option("--ncv", o.ncv, "Spectra's Lanczos basis size (--eigensolver spectra)")->capture_default_str();
  cmd->add_option("--amplification-dofs", o.amplification_dofs,
                  "damped packings up to this many dofs: amplification matrix for every integrator")
      ->capture_default_str();
  cmd->add_option("--crossing-check-dofs", o.crossing_check_dofs,
                  "damped non-symmetric packings up to this many dofs: each limit's one-step map (a dashpot family's "
                  "recurrence, else the amplification matrix) checked below the -1 crossing for complex crossings "
                  "(above: the crossing is an upper bound)")
      ->capture_default_str();
  cmd->add_option("--scan-dofs", o.scan_dofs,
                  "damped packings up to this many dofs: the rows no criterion decides (HHT, generalised-alpha, GS4 "
                  "when K is not symmetric; a -1 line's row when K or C is not semi-definite) scanned at 22 steps on "
                  "their own amplification matrix (above: not computed; a dense eigenvalue solve per step)")
      ->capture_default_str();
  cmd->add_option("--certify-dofs", o.certify_dofs,
                  "symmetric packings up to this many dofs: each limit proven by a sparse Cholesky factorisation of "
                  "its criterion just beyond it, and h_safe = the limit less 1e-6 (above: h_safe from Gershgorin bounds)")
      ->capture_default_str();
}

void record_given(const CLI::App* cmd, packing::PackingRequest& o) {
  for (const CLI::Option* opt : cmd->get_options())
    if (opt->count() > 0) o.given.insert(opt->get_name());
}

}  // namespace dtcrit::cli
