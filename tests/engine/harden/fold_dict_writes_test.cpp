// harden/fold_dict_writes.cpp: a dict filled by constant-key writes in one block
// becomes its values (reads) and one DictConstruct (the return).
#include "engine/harden_test_util.h"
#include "harden/fold_dict_writes.h"
#include "suite_macros.h"

#include <torch/csrc/jit/ir/constants.h>

using t2n::harden::PassContext;
using namespace t2n::test::harden_test;

class FoldDictWritesTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    /// `out = {}; out["feat"] = a; y = out["feat"] + 1; out["aux"] = b;
    /// out["feat"] = y; return out`: the read is `a`, the return a construct of
    /// feat -> y and aux -> b, feat first (Python keeps the first position).
    void writesAndReadsFold() {
        PassContext ctx(parse(R"IR(
graph(%x : Tensor):
  %feat : str = prim::Constant[value="feat"]()
  %auxk : str = prim::Constant[value="aux"]()
  %one : int = prim::Constant[value=1]()
  %out : Dict(str, Tensor) = aten::dict()
  %a : Tensor = aten::relu(%x)
  aten::_set_item(%out, %feat, %a)
  %r : Tensor = aten::__getitem__(%out, %feat)
  %y : Tensor = aten::add(%r, %one, %one)
  %b : Tensor = aten::neg(%x)
  aten::_set_item(%out, %auxk, %b)
  aten::_set_item(%out, %feat, %y)
  return (%out))IR"));
        t2n::harden::foldDictWrites(ctx);
        QCOMPARE(count(ctx, "dicts_rebuilt"), int64_t(1));
        QCOMPARE(count(ctx, "dict_writes_folded"), int64_t(3));
        EXPECT_IR("# CHECK-NOT: aten::_set_item\n# CHECK-NOT: aten::__getitem__\n"
                  "# CHECK: aten::relu\n# CHECK: aten::add\n# CHECK: aten::neg\n"
                  "# CHECK: prim::DictConstruct",
                  ctx.graph);
        const torch::jit::Node* dict = ctx.graph->outputs().at(0)->node();
        QCOMPARE(dict->kind(), c10::prim::DictConstruct);
        QCOMPARE(dict->inputs().size(), size_t(4));
        QCOMPARE(torch::jit::toIValue(dict->input(0))->toStringRef(), std::string("feat"));
        QCOMPARE(dict->input(1)->node()->kind(), c10::aten::add);
        QCOMPARE(torch::jit::toIValue(dict->input(2))->toStringRef(), std::string("aux"));
        QCOMPARE(dict->input(3)->node()->kind(), c10::aten::neg);
        // The read before the second write of "feat" is the first value.
        QCOMPARE(dict->input(1)->node()->input(0)->node()->kind(), c10::aten::relu);
    }

    /// A write inside a branch, and a read of a key not yet written: left alone.
    void branchWriteAndEarlyReadStay() {
        PassContext ctx(parse(R"IR(
graph(%c : bool, %x : Tensor):
  %k : str = prim::Constant[value="k"]()
  %out : Dict(str, Tensor) = aten::dict()
  prim::If(%c)
    block0():
      aten::_set_item(%out, %k, %x)
      -> ()
    block1():
      -> ()
  return (%out))IR"));
        t2n::harden::foldDictWrites(ctx);
        QVERIFY(ctx.counts.empty());
        EXPECT_IR("# CHECK: aten::_set_item", ctx.graph);

        PassContext early(parse(R"IR(
graph(%x : Tensor):
  %k : str = prim::Constant[value="k"]()
  %out : Dict(str, Tensor) = aten::dict()
  %r : Tensor = aten::__getitem__(%out, %k)
  aten::_set_item(%out, %k, %x)
  return (%r))IR"));
        t2n::harden::foldDictWrites(early);
        QVERIFY(early.counts.empty());
    }
};

T2N_TEST_SUITE(FoldDictWritesTest)
#include "fold_dict_writes_test.moc"
