"""The library sweep's models: every builder of torchvision 0.14 and every model of
torchaudio 0.13's torchaudio.models, with random weights from a fixed seed.

ENTRIES lists them in page order.  Each entry builds an eval-mode nn.Module and its
example inputs; sweep.py traces and scripts it, saves it under build/zoo/models/ and
runs the real t2n binary on it.  Nothing here downloads: weights=None and
weights_backbone=None everywhere, and torch.hub's download is replaced by an error.

Builders whose weights exceed about 600 MB are built in a narrower configuration (fewer
layers or blocks of the same width); the entry's note says which, and the page shows it.
"""

import collections
import functools
import inspect
import os
import sys

import torch
import torch.nn as nn

import torchaudio
import torchvision
import torchvision.models as tvm
from torchvision.models.quantization.utils import quantize_model

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures"))
from generate import calibrate_batch_norm  # noqa: E402  (the fixtures' own)

Entry = collections.namedtuple("Entry", "name family build forms note ci flags")

ENTRIES = []


def _no_download(*args, **kwargs):
    raise RuntimeError("the zoo never downloads weights (weights=None everywhere)")


torch.hub.load_state_dict_from_url = _no_download
torch.hub.download_url_to_file = _no_download


def entry(name, family, build, forms=("traced", "scripted"), note="", ci=(), flags=()):
    """ci: the forms that belong to the fast subset CTest runs; flags: t2n export options the
    row needs, as a user would give them (the note says why)."""
    ENTRIES.append(Entry(name, family, build, tuple(forms), note, tuple(ci), tuple(flags)))


def source_key(e):
    """What the cached files of an entry depend on: its builder's source and fields."""
    fn = e.build
    parts = [repr((e.name, e.forms, e.note))]
    while isinstance(fn, functools.partial):
        parts.append(repr((fn.args, sorted(fn.keywords.items()))))
        fn = fn.func
    parts.append(inspect.getsource(fn))
    return "\n".join(parts)


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

def calibrate(model, inputs, batch=4):
    """BatchNorm statistics from one seeded train-mode pass, as the fixtures do (their
    calibrate_batch_norm says why): random networks with mean 0 / var 1 statistics give
    outputs of 1e-14 .. 1e9, useless to compare."""
    calibrate_batch_norm(model, tuple(inputs[0].shape), batch=batch)


class DictToTuple(nn.Module):
    """Detection backbones return an OrderedDict of feature maps; a user exporting one
    wraps it like this so that the outputs are an ordered tuple."""

    def __init__(self, body):
        super().__init__()
        self.body = body

    def forward(self, x):
        out = self.body(x)
        return tuple(out.values())


def image(*shape):
    return [torch.randn(*shape)]


# ---------------------------------------------------------------------------
# torchvision: classification
# ---------------------------------------------------------------------------

def tv_classifier(arch, size=224, **kwargs):
    model = getattr(tvm, arch)(weights=None, **kwargs)
    inputs = image(1, 3, size, size)
    calibrate(model, inputs)
    return model.eval(), inputs


def tv_narrow(arch, **kwargs):
    """A builder's class in a shallower configuration of the same width."""
    if arch.startswith("vit_"):
        from torchvision.models.vision_transformer import VisionTransformer
        model = VisionTransformer(**kwargs)
    elif arch.startswith("regnet_"):
        from torchvision.models.regnet import BlockParams, RegNet
        model = RegNet(BlockParams.from_init_params(**kwargs))
    elif arch.startswith("convnext_"):
        from torchvision.models.convnext import CNBlockConfig, ConvNeXt
        model = ConvNeXt([CNBlockConfig(*c) for c in kwargs["settings"]],
                         stochastic_depth_prob=0.5)
    inputs = image(1, 3, 224, 224)
    calibrate(model, inputs)
    return model.eval(), inputs


_SMALL_CI = {"squeezenet1_1", "mobilenet_v3_small", "shufflenet_v2_x0_5", "mnasnet0_5",
             "resnet18"}
_NARROW = {
    "convnext_large": (dict(settings=[(192, 384, 3), (384, 768, 3), (768, 1536, 9),
                                      (1536, None, 3)]),
                       "narrower: 9 of the 27 stage-3 blocks (754 MB in full)"),
    "regnet_y_128gf": (dict(depth=12, w_0=456, w_a=160.83, w_m=2.52, group_width=264,
                            se_ratio=0.25),
                       "narrower: depth 12 instead of 27 (2.5 GB in full)"),
    "vit_h_14": (dict(image_size=224, patch_size=14, num_layers=6, num_heads=16, hidden_dim=1280,
                      mlp_dim=5120),
                 "narrower: 6 of 32 encoder layers (2.4 GB in full)"),
    "vit_l_16": (dict(image_size=224, patch_size=16, num_layers=10, num_heads=16,
                      hidden_dim=1024, mlp_dim=4096),
                 "narrower: 10 of 24 encoder layers (1.2 GB in full)"),
    "vit_l_32": (dict(image_size=224, patch_size=32, num_layers=10, num_heads=16,
                      hidden_dim=1024, mlp_dim=4096),
                 "narrower: 10 of 24 encoder layers (1.2 GB in full)"),
}
_CLASSIFIER_KW = {
    "googlenet": dict(aux_logits=False, init_weights=True),
    "inception_v3": dict(aux_logits=False, init_weights=True),
}
_CLASSIFIER_SIZE = {"inception_v3": 299}

for _arch in tvm.list_models(module=tvm):
    if _arch in _NARROW:
        _kw, _note = _NARROW[_arch]
        entry(_arch, "torchvision classification", functools.partial(tv_narrow, _arch, **_kw),
              note=_note)
    else:
        entry(_arch, "torchvision classification",
              functools.partial(tv_classifier, _arch, _CLASSIFIER_SIZE.get(_arch, 224),
                                **_CLASSIFIER_KW.get(_arch, {})),
              ci=("traced", "scripted") if _arch in _SMALL_CI else ())


# ---------------------------------------------------------------------------
# torchvision: segmentation, video, optical flow
# ---------------------------------------------------------------------------

def tv_segmentation(arch):
    model = getattr(tvm.segmentation, arch)(weights=None, weights_backbone=None)
    inputs = image(1, 3, 224, 224)
    calibrate(model, inputs)
    return model.eval(), inputs


for _arch in tvm.list_models(module=tvm.segmentation):
    entry(_arch, "torchvision segmentation", functools.partial(tv_segmentation, _arch))


_VIDEO_SHAPE = {"mvit_v1_b": (1, 3, 16, 224, 224), "mvit_v2_s": (1, 3, 16, 224, 224),
                "s3d": (1, 3, 16, 224, 224)}


def tv_video(arch):
    model = getattr(tvm.video, arch)(weights=None)
    inputs = image(*_VIDEO_SHAPE.get(arch, (1, 3, 8, 112, 112)))
    calibrate(model, inputs, batch=2)
    return model.eval(), inputs


for _arch in tvm.list_models(module=tvm.video):
    entry(_arch, "torchvision video", functools.partial(tv_video, _arch))


def tv_optical_flow(arch):
    model = getattr(tvm.optical_flow, arch)(weights=None)
    inputs = image(1, 3, 128, 128) + image(1, 3, 128, 128)
    calibrate(model.context_encoder, inputs, batch=2)  # the BatchNorm part, one image in
    return model.eval(), inputs


for _arch in tvm.list_models(module=tvm.optical_flow):
    entry(_arch, "torchvision optical flow", functools.partial(tv_optical_flow, _arch))


# ---------------------------------------------------------------------------
# torchvision: quantized classification (qnnpack, per-tensor, calibrated on noise)
# ---------------------------------------------------------------------------

def tv_quantized(arch, size=224):
    """What quantize=True builds, with the BatchNorm statistics calibrated first: without
    them the quantized MobileNets output exactly zero (every row would compare nothing)."""
    torch.backends.quantized.engine = "qnnpack"
    model = tvm.get_model_builder(arch)(weights=None, quantize=False)
    inputs = image(1, 3, size, size)
    calibrate(model, inputs)
    quantize_model(model, "qnnpack")  # torchvision's own: fuse, observe one noise image, convert
    return model.eval(), inputs


for _arch in tvm.list_models(module=tvm.quantization):
    entry(_arch, "torchvision quantized",
          functools.partial(tv_quantized, _arch, 299 if "inception" in _arch else 224),
          note="BatchNorm calibrated on seeded noise, then torchvision's quantize_model (qnnpack, "
               "observers calibrated on one noise image)",
          ci=("traced",) if _arch in ("quantized_mobilenet_v2", "quantized_shufflenet_v2_x1_5")
          else ())

# Rows known to fail, with why: the CTest subset (--expect-pass) requires these to fail and
# every other selected row to pass, so a fix shows up as "now passes" and a new failure as a
# failure. Not a way to hide one: the page lists them as fails with t2n's own error.
KNOWN_FAILURES = {
    # quantized_mobilenet_v2/traced passes since the quantized criterion (docs/quantized.md):
    # PyTorch's rounding at quantize, tract's integer conv in the interpreter.
}


# ---------------------------------------------------------------------------
# torchvision: detection backbones (the builders' `.backbone`)
# ---------------------------------------------------------------------------

def calibrate_frozen_batch_norm(model, inputs):
    """The ResNet bodies of the detection builders use FrozenBatchNorm2d (weight 1, bias 0,
    mean 0, var 1 without weights): nothing normalises them, activations grow through
    the depth and an output's rounding then exceeds any element-wise tolerance, as no
    trained network's does. Each one, in order, gets the per-channel mean and variance
    of its own input on the seeded image, as a train-mode BatchNorm pass would give."""
    from torchvision.ops.misc import FrozenBatchNorm2d
    frozen = [m for m in model.modules() if isinstance(m, FrozenBatchNorm2d)]
    for bn in frozen:
        seen = {}
        hook = bn.register_forward_pre_hook(lambda m, args: seen.setdefault("x", args[0]))
        with torch.no_grad():
            model(*inputs)
        hook.remove()
        x = seen["x"]
        bn.running_mean.copy_(x.mean(dim=(0, 2, 3)))
        bn.running_var.copy_(x.var(dim=(0, 2, 3), unbiased=False))
    return bool(frozen)


def tv_detection_backbone(arch, size):
    model = getattr(tvm.detection, arch)(weights=None, weights_backbone=None)
    body = DictToTuple(model.backbone)
    inputs = image(1, 3, size, size)
    calibrate(body, inputs)
    calibrate_frozen_batch_norm(body.eval(), inputs)
    return body.eval(), inputs


_BACKBONE_SIZE = {"ssd300_vgg16": 300, "ssdlite320_mobilenet_v3_large": 320,
                  "fasterrcnn_mobilenet_v3_large_320_fpn": 320}

for _arch in tvm.list_models(module=tvm.detection):
    entry(_arch + ".backbone", "torchvision detection backbone",
          functools.partial(tv_detection_backbone, _arch, _BACKBONE_SIZE.get(_arch, 256)),
          note="the builder's .backbone, OrderedDict outputs as a tuple")


# ---------------------------------------------------------------------------
# torchaudio.models
# ---------------------------------------------------------------------------

def ta_wav2letter():
    model = torchaudio.models.Wav2Letter(num_classes=40, input_type="waveform", num_features=1)
    return model.eval(), [torch.randn(1, 1, 8000)]


def ta_wavernn():
    model = torchaudio.models.WaveRNN(upsample_scales=[5, 5, 8], n_classes=256, hop_length=200)
    n_time = 10
    return model.eval(), [torch.randn(1, 1, (n_time - 5 + 1) * 200), torch.randn(1, 1, 128, n_time)]


def ta_conv_tasnet():
    return torchaudio.models.conv_tasnet_base(num_sources=2).eval(), [torch.randn(1, 1, 8000)]


def ta_deepspeech():
    model = torchaudio.models.DeepSpeech(n_feature=80, n_hidden=1024, n_class=40)
    return model.eval(), [torch.randn(1, 1, 100, 80)]


def ta_wav2vec2(builder, **layers):
    if layers:
        config = dict(_WAV2VEC2_LARGE)
        config.update(layers)
        model = torchaudio.models.wav2vec2_model(**config)
    else:
        model = getattr(torchaudio.models, builder)()
    # weight norm is a forward pre-hook that torch.jit.trace cannot keep; torchaudio removes
    # it the same way before scripting (__prepare_scriptable__), eval numbers are unchanged
    nn.utils.remove_weight_norm(model.encoder.transformer.pos_conv_embed.conv)
    return model.eval(), [torch.randn(1, 16000)]


_WAV2VEC2_LARGE = dict(
    extractor_mode="group_norm", extractor_conv_layer_config=None, extractor_conv_bias=False,
    encoder_embed_dim=1024, encoder_projection_dropout=0.1, encoder_pos_conv_kernel=128,
    encoder_pos_conv_groups=16, encoder_num_layers=24, encoder_num_heads=16,
    encoder_attention_dropout=0.1, encoder_ff_interm_features=4096,
    encoder_ff_interm_dropout=0.0, encoder_dropout=0.1, encoder_layer_norm_first=False,
    encoder_layer_drop=0.1, aux_num_out=None)
_LV60K = dict(extractor_mode="layer_norm", extractor_conv_bias=True,
              encoder_layer_norm_first=True, encoder_ff_interm_dropout=0.1, encoder_dropout=0.0,
              encoder_layer_drop=0.1)
_XLARGE = dict(_LV60K, encoder_embed_dim=1280, encoder_num_heads=16,
               encoder_ff_interm_features=5120, encoder_ff_interm_dropout=0.0,
               encoder_layer_drop=0.0)

entry("wav2letter", "torchaudio", ta_wav2letter, ci=("traced", "scripted"))
entry("wavernn", "torchaudio", ta_wavernn)
entry("conv_tasnet_base", "torchaudio", ta_conv_tasnet)
entry("deepspeech", "torchaudio", ta_deepspeech, note="n_feature 80, n_hidden 1024, 40 classes")
_WN = "positional conv's weight norm folded (as torchaudio does before scripting)"
entry("wav2vec2_base", "torchaudio", functools.partial(ta_wav2vec2, "wav2vec2_base"), note=_WN)
entry("wav2vec2_large", "torchaudio",
      functools.partial(ta_wav2vec2, "wav2vec2_large", encoder_num_layers=8),
      note="narrower: 8 of 24 encoder layers (1.2 GB in full); " + _WN)
entry("wav2vec2_large_lv60k", "torchaudio",
      functools.partial(ta_wav2vec2, "wav2vec2_large_lv60k", encoder_num_layers=8, **_LV60K),
      note="narrower: 8 of 24 encoder layers (1.2 GB in full); " + _WN)
entry("hubert_base", "torchaudio", functools.partial(ta_wav2vec2, "hubert_base"), note=_WN)
entry("hubert_large", "torchaudio",
      functools.partial(ta_wav2vec2, "hubert_large", encoder_num_layers=8, **_LV60K),
      note="narrower: 8 of 24 encoder layers (1.2 GB in full); " + _WN)
entry("hubert_xlarge", "torchaudio",
      functools.partial(ta_wav2vec2, "hubert_xlarge", encoder_num_layers=6, **_XLARGE),
      note="narrower: 6 of 48 encoder layers (3.8 GB in full); " + _WN)


def ta_conformer():
    model = torchaudio.models.Conformer(input_dim=80, num_heads=4, ffn_dim=256, num_layers=4,
                                        depthwise_conv_kernel_size=31)
    return model.eval(), [torch.randn(1, 60, 80), torch.tensor([60])]


def ta_emformer():
    model = torchaudio.models.Emformer(input_dim=128, num_heads=4, ffn_dim=512, num_layers=4,
                                       segment_length=4, right_context_length=1)
    return model.eval(), [torch.randn(1, 17, 128), torch.tensor([16])]


class RnntLogits(nn.Module):
    """RNNT.forward also returns the predictor state, a list of lists of tensors that
    torch.jit.trace cannot output: keep the logits and the lengths."""

    def __init__(self, rnnt):
        super().__init__()
        self.rnnt = rnnt

    def forward(self, sources, source_lengths, targets, target_lengths):
        out, src_len, tgt_len, _ = self.rnnt(sources, source_lengths, targets, target_lengths)
        return out, src_len, tgt_len


def ta_emformer_rnnt():
    model = RnntLogits(torchaudio.models.emformer_rnnt_base(num_symbols=256))
    return model.eval(), [torch.randn(1, 84, 80), torch.tensor([84]),
                          torch.randint(0, 256, (1, 6)), torch.tensor([6])]


def ta_tacotron2():
    model = torchaudio.models.Tacotron2(n_symbol=148)
    return model.eval(), [torch.randint(0, 148, (1, 20)), torch.tensor([20]),
                          torch.randn(1, 80, 30), torch.tensor([30])]


def ta_hdemucs(builder):
    model = getattr(torchaudio.models, builder)(sources=["drums", "bass", "other", "vocals"])
    return model.eval(), [torch.randn(1, 2, 44100 // 4)]


entry("conformer", "torchaudio", ta_conformer,
      note="80 features, 4 layers, 4 heads, ffn 256; lengths = full length")
entry("emformer", "torchaudio", ta_emformer,
      note="128 dims, 4 layers, segment 4, right context 1; lengths = 16")
entry("emformer_rnnt_base", "torchaudio", ta_emformer_rnnt,
      note="256 symbols; 84 frames, 6 target tokens; outputs logits and lengths (not the "
           "predictor state)")
entry("tacotron2", "torchaudio", ta_tacotron2,
      note="teacher-forced forward(tokens, token_lengths, mel_specgram, mel_specgram_lengths); "
           "--no-check-io-names: scripted, mel_specgram_lengths reaches no output",
      flags=("--no-check-io-names",))
for _b in ("hdemucs_low", "hdemucs_medium", "hdemucs_high"):
    entry(_b, "torchaudio", functools.partial(ta_hdemucs, _b), note="4 sources, 0.25 s stereo")
