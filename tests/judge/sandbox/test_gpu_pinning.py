"""One worker per GPU: ``kerneldojo worker --gpu N`` pins the worker, and its runners' sandboxes
see only that GPU's device node, named by UUID (the scale-out benchmark runs this on 2 GPUs)."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from app import cli as app_cli
from judge import device
from judge.sandbox import bubblewrap

DEV = ["nvidia0", "nvidia1", "nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "null", "nvidia-caps"]


@pytest.fixture
def unpinned(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.delenv(device.GPU_INDEX_ENV, raising=False)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "0,1")
    return monkeypatch


def test_an_unpinned_worker_binds_every_gpu_node(unpinned: pytest.MonkeyPatch) -> None:
    nodes = bubblewrap._gpu_nodes(DEV)
    assert {"/dev/nvidia0", "/dev/nvidia1", "/dev/nvidiactl", "/dev/nvidia-uvm"} <= set(nodes)
    assert "/dev/null" not in nodes
    assert device.sandbox_visible_devices() is None


def test_a_pinned_worker_binds_only_its_gpu(unpinned: pytest.MonkeyPatch) -> None:
    device.pin_gpu(1)
    nodes = bubblewrap._gpu_nodes(DEV)
    assert "/dev/nvidia1" in nodes and "/dev/nvidia0" not in nodes
    # the driver's control nodes are needed by every GPU process
    assert {"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-caps"} <= set(nodes)


def test_the_sandbox_names_the_pinned_gpu_by_uuid(
    unpinned: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    unpinned.setattr(bubblewrap, "mode", lambda: "bwrap")
    unpinned.setattr(bubblewrap, "bwrap_path", lambda: "/usr/bin/bwrap")
    unpinned.setattr(device, "gpu_uuid", lambda index: f"GPU-test-{index}")
    device.pin_gpu(1)
    assert device.sandbox_visible_devices() == "GPU-test-1"
    argv = bubblewrap.command(["python3"], bubblewrap.Policy(tmp_path, gpu=True))
    i = argv.index("CUDA_VISIBLE_DEVICES")
    assert argv[i - 1] == "--setenv" and argv[i + 1] == "GPU-test-1"
    # without nvidia-smi's answer, the worker's own setting (the index) passes through
    unpinned.setattr(device, "gpu_uuid", lambda index: None)
    assert device.sandbox_visible_devices() == "1"


def test_worker_gpu_option_pins_and_names_the_worker(
    unpinned: pytest.MonkeyPatch,
) -> None:
    seen: dict[str, object] = {}

    def fake_execv(path: str, argv: list[str]) -> None:
        seen["argv"] = argv
        seen["index"] = app_cli.os.environ.get(device.GPU_INDEX_ENV)
        seen["visible"] = app_cli.os.environ.get("CUDA_VISIBLE_DEVICES")

    unpinned.setattr(app_cli.os, "execv", fake_execv)
    unpinned.setenv("KERNELDOJO_GPU_KIND", "h100")
    cli = typer.Typer()
    app_cli.register(cli)
    res = CliRunner().invoke(cli, ["worker", "--queue", "h100", "--gpu", "1"])
    assert res.exit_code == 0, res.output
    assert seen["index"] == "1" and seen["visible"] == "1"
    argv = seen["argv"]
    assert isinstance(argv, list) and "worker-h100-gpu1@%h" in argv
    res = CliRunner().invoke(cli, ["worker", "--queue", "h100", "--gpu", "-1"])
    assert res.exit_code != 0
