#include "jit/torch_bridge.h"

#include "t2n/error.h"

#include <ATen/ATen.h>
#include <fmt/format.h>

namespace t2n::jit {

std::optional<DType> fromScalarType(c10::ScalarType t) {
    switch (t) {
    case c10::ScalarType::Half:
        return DType::F16;
    case c10::ScalarType::Float:
        return DType::F32;
    case c10::ScalarType::Double:
        return DType::F64;
    case c10::ScalarType::Char:
        return DType::I8;
    case c10::ScalarType::Short:
        return DType::I16;
    case c10::ScalarType::Int:
        return DType::I32;
    case c10::ScalarType::Long:
        return DType::I64;
    case c10::ScalarType::Byte:
        return DType::U8;
    case c10::ScalarType::Bool:
        return DType::Bool;
    default:
        return std::nullopt;
    }
}

c10::ScalarType toScalarType(DType t) {
    switch (t) {
    case DType::F16:
        return c10::ScalarType::Half;
    case DType::F32:
        return c10::ScalarType::Float;
    case DType::F64:
        return c10::ScalarType::Double;
    case DType::I8:
        return c10::ScalarType::Char;
    case DType::I16:
        return c10::ScalarType::Short;
    case DType::I32:
        return c10::ScalarType::Int;
    case DType::I64:
        return c10::ScalarType::Long;
    case DType::U8:
        return c10::ScalarType::Byte;
    case DType::Bool:
        return c10::ScalarType::Bool;
    }
    return c10::ScalarType::Float;
}

bool isHalfLike(c10::ScalarType t) {
    return t == at::kHalf || t == at::kBFloat16;
}

void flattenTensors(const c10::IValue& v, std::vector<at::Tensor>& out) {
    if (v.isTensor()) {
        out.push_back(v.toTensor());
    } else if (v.isTuple()) {
        for (const auto& e : v.toTupleRef().elements())
            flattenTensors(e, out);
    } else if (v.isList()) {
        for (const auto& e : v.toListRef())
            flattenTensors(e, out);
    } else if (v.isGenericDict()) {
        for (const auto& e : v.toGenericDict())
            flattenTensors(e.value(), out);
    } else if (v.isDouble()) {
        out.push_back(at::scalar_tensor(v.toDouble(), at::kFloat));
    } else if (v.isInt()) {
        out.push_back(at::scalar_tensor(v.toInt(), at::kLong));
    } else if (v.isBool()) {
        out.push_back(at::scalar_tensor(v.toBool(), at::kBool));
    }
}

at::Tensor realView(const at::Tensor& t) {
    return t.is_complex() ? at::view_as_real(t.resolve_conj()) : t;
}

TensorData toTensorData(const at::Tensor& t) {
    if (t.is_complex())
        return toTensorData(realView(t));
    // A quantized tensor is seen as the real numbers it stands for; its
    // storage and scale travel separately (ir::Quantization).
    if (t.is_quantized())
        return toTensorData(t.dequantize());
    auto dtype = fromScalarType(t.scalar_type());
    if (!dtype)
        throw Error(
            Stage::Trace, ErrorCode::Unsupported,
            fmt::format("tensors of type {} are not supported", c10::toString(t.scalar_type())),
            "t2n handles f16, f32, f64, i8, i16, i32, i64, u8 and bool tensors");
    at::Tensor c = t.is_contiguous() ? t : t.contiguous();
    auto owner = std::make_shared<at::Tensor>(c);
    const auto* bytes = static_cast<const std::byte*>(owner->data_ptr());
    return TensorData(*dtype, c.sizes().vec(), bytes, std::shared_ptr<const void>(owner, bytes));
}

at::Tensor toTensor(const TensorData& data) {
    auto opts = at::TensorOptions().dtype(toScalarType(data.dtype()));
    if (data.numel() == 0)
        return at::empty(data.shape(), opts);
    // from_blob needs a mutable pointer; the tensor is only ever read. The
    // deleter holds a copy of `data`, which keeps the bytes alive.
    return at::from_blob(
        const_cast<std::byte*>(data.bytes().data()), data.shape(), [keep = data](void*) {}, opts);
}

} // namespace t2n::jit
