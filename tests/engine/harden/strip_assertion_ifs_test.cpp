// harden/strip_assertion_ifs.cpp: Ifs that only raise (assertions) go, outputs included.
#include "engine/harden_test_util.h"
#include "harden/strip_assertion_ifs.h"
#include "suite_macros.h"

using t2n::harden::PassContext;
using namespace t2n::test::harden_test;

class StripAssertionIfsTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// An assert (raise in the else branch, message built by format) is dropped, with its message.
    void assertionStripped() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor, %n : int):
  %big : int = prim::Constant[value=64]()
  %msg : str = prim::Constant[value="AssertionError: batch {} too large"]()
  %c : bool = aten::le(%n, %big)
  prim::If(%c)
    block0():
      -> ()
    block1():
      %m : str = aten::format(%msg, %n)
      prim::RaiseException(%m)
      -> ()
  %y : Tensor = aten::relu(%x)
  return (%y))IR"));
        t2n::harden::stripAssertionIfs(ctx);
        QCOMPARE(count(ctx, "assertions_stripped"), int64_t(1));
        QVERIFY(anyOf(ctx.remarks, "batch {} too large"));
        EXPECT_IR("# CHECK-NOT: prim::If\n# CHECK-NOT: prim::RaiseException", ctx.graph);
    }

    /// A raise that produces outputs (prim::Uninitialized) keeps the other branch's values.
    void assertionWithOutputsStripped() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor, %c : bool):
  %msg : str = prim::Constant[value="nope"]()
  %y : Tensor = prim::If(%c)
    block0():
      prim::RaiseException(%msg)
      %u : Tensor = prim::Uninitialized()
      -> (%u)
    block1():
      %b : Tensor = aten::relu(%x)
      -> (%b)
  return (%y))IR"));
        t2n::harden::stripAssertionIfs(ctx);
        QCOMPARE(count(ctx, "assertions_stripped"), int64_t(1));
        EXPECT_IR("# CHECK-NOT: prim::If\n# CHECK: aten::relu(%x)\n# CHECK: return", ctx.graph);
    }

    /// An If whose branches compute tensors is no assertion, nor one where both branches raise.
    void assertionNoPattern() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor, %c : bool):
  %msg : str = prim::Constant[value="nope"]()
  %y : Tensor = prim::If(%c)
    block0():
      %a : Tensor = aten::neg(%x)
      prim::RaiseException(%msg)
      -> (%a)
    block1():
      -> (%x)
  prim::If(%c)
    block0():
      prim::RaiseException(%msg)
      -> ()
    block1():
      prim::RaiseException(%msg)
      -> ()
  return (%y))IR"));
        t2n::harden::stripAssertionIfs(ctx);
        QVERIFY(ctx.counts.empty());
        EXPECT_IR("# CHECK-COUNT-2: prim::If", ctx.graph);
    }
};

T2N_TEST_SUITE(StripAssertionIfsTest)
#include "strip_assertion_ifs_test.moc"
