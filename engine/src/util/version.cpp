#include "t2n/version.h"

namespace t2n {

std::string_view version() {
    return T2N_VERSION;
}

} // namespace t2n
