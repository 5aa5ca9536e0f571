#pragma once
// Planar bodies from command-line specifications:
//   shape=disc,r=0.0005,m=0.003            (or rho= with the thickness t=, required)
//   shape=sphere,r=0.0005,m=0.003          (or rho=: m = rho 4/3 pi r^3); I = 2/5 m r^2
//   shape=rect,a=0.001,b=0.00075,m=0.003,e=0.0004
//   shape=ellipse,a=..,b=..,m=..[,arm]
//   shape=polygon,vertices=0:0/1e-3:0/0:1e-3,m=..,P=x:y
//   shape=custom,m=..,I=..,<arm>
// where <arm> is rt=,rn= or L=,theta= (radians) or L=,e=.
#include <string_view>

#include "dtcrit/bodies/planar_body.hpp"
#include "dtcrit/core/key_values.hpp"

namespace dtcrit {

PlanarBody parse_body(const KeyValues& spec);
inline PlanarBody parse_body(std::string_view spec, const std::string& who) { return parse_body(KeyValues(spec, who)); }

}  // namespace dtcrit
