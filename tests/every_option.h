// An ExportOptions with every field away from its default: what the recipe
// and option-table suites round-trip. A new export option gets a value here
// (tst_option_table counts the fields).
#pragma once

#include "t2n/options.h"

namespace t2n::test {

/// Every export option away from its default, each in a form the command
/// line can express too.
inline ExportOptions everyOption() {
    ExportOptions o;
    o.inputs = {InputSpec::parse("x:1x3x8x8:f16"), InputSpec::parse("n:scalar:i64"),
                InputSpec::parse("ids:1x4:i64=[3,1,4,1]"),
                InputSpec::parse("w=@values.npz#weights")};
    o.inputNames = {"image", "count", "ids", "w"};
    o.outputNames = {"logits", "extra"};
    o.target = TargetSpec::parse("tract@0.21.13");
    o.dynamicAxes = {DynamicAxis::parse("image:0=B"),
                     DynamicAxis::parse("image:-1=W:multiple-of=8,min=16")};
    o.properties = {{"b_key", "2"}, {"a_key", "one=1"}}; // order kept, '=' in a value
    o.identityProperties = false;
    o.stampExportDate = true;
    o.naming = NamingScheme::NaturalVerboseCamel;
    o.checkIoNamesQuantityMatch = false;
    o.allowSameIoNames = true;
    o.customExtensions = {"tract_assert B >= 1", "tract_assert B <= 8"};
    o.compressionLevel.reset();
    o.logLevel = LogLevel::Debug;
    o.harden.freeze = false;
    o.harden.skip = {"strip_prim_data", "fold_constant_ifs"};
    o.harden.rewriteLimit = 7;
    o.harden.snapshots = false;
    o.harden.maxRounds = 3;
    o.check = false;
    o.checkTolerance = "custom:0.001,0.01,0.0001";
    o.checkEveryValue = true;
    o.tractBinary = "/opt/tract";
    o.debugBundle = "bundle.tgz";
    o.seed = 18446744073709551615ull;
    o.weightsQ4_0 = true;
    o.reifySdpa = true;
    o.upsampleWithDebox = true;
    o.compute = DType::F16;
    o.f32Attention = true;
    o.f32LinearAccumulation = true;
    o.f32Norm = true;
    return o;
}

} // namespace t2n::test
