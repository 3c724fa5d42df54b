#include "profiles.hpp"

namespace zrt {

namespace {

// Values read from Intel's compute runtime 22.43 without hardware (DESIGN.md, tests/level_zero_nohw):
// tgllp as its 96-EU part (HardwareInfoOverride=1x6x16), dg2 and pvc as 1x4x8.
const Profile kProfiles[] = {
    {"tgllp", "Intel(R) Iris(R) Xe Graphics [0x9a49]", 0x9A49, 1, 6, 16, 7, 8, 1300, 512, 64 * 1024, {8, 16, 32},
     true, false, true, {}, {}, {}, {}},
    {"dg2", "Intel(R) Arc(TM) A770 Graphics [0x56a0]", 0x56A0, 1, 4, 8, 8, 8, 2400, 512, 64 * 1024, {8, 16, 32},
     true, false, true, {}, {true, false}, {}, {}},
    {"pvc", "Intel(R) Data Center GPU Max 1550 [0x0bd5]", 0x0BD5, 1, 4, 8, 8, 16, 1600, 1024, 128 * 1024, {16, 32},
     true, true, true, {true, true}, {true, true}, {true, true}, {}},
};

}  // namespace

const Profile* find_profile(std::string_view name) {
  for (const auto& p : kProfiles)
    if (p.name == name) return &p;
  return nullptr;
}

std::string known_profiles() {
  std::string names;
  for (const auto& p : kProfiles) names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

}  // namespace zrt
