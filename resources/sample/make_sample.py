"""Writes sample_cnn.pt, the tiny model bundled for README's first command.

Run with Debian's Python (python3-torch 1.13):
    /usr/bin/python3 resources/sample/make_sample.py
The product never needs Python; this only (re)creates the committed sample.
"""
import os
from collections import OrderedDict

import torch
from torch import nn


class SampleCNN(nn.Module):
    """A small image classifier: two conv blocks, global pooling, a linear head."""

    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(OrderedDict(
            conv1=nn.Conv2d(3, 8, 3, padding=1),
            bn1=nn.BatchNorm2d(8),
            relu1=nn.ReLU(),
            pool=nn.MaxPool2d(2),
            conv2=nn.Conv2d(8, 16, 3, padding=1, groups=2),
            bn2=nn.BatchNorm2d(16),
            act2=nn.Hardswish(),
        ))
        self.head = nn.Linear(16, 10)

    def forward(self, image):
        x = self.features(image)
        x = torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1)
        return torch.softmax(self.head(x), dim=-1)


def main():
    torch.manual_seed(20261122)
    model = SampleCNN()
    with torch.no_grad():  # non-trivial batch-norm statistics
        for bn in (model.features.bn1, model.features.bn2):
            bn.running_mean.uniform_(-0.5, 0.5)
            bn.running_var.uniform_(0.5, 1.5)
    model.eval()
    example = torch.randn(1, 3, 32, 32)
    with torch.no_grad():
        traced = torch.jit.trace(model, example)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sample_cnn.pt")
    traced.save(out)
    print("wrote", out, os.path.getsize(out), "bytes")


if __name__ == "__main__":
    main()
