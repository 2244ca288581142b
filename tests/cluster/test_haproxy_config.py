"""The generated haproxy.cfg is one HAProxy accepts (``haproxy -c``), with and without the
per-address limits, and it routes every slot's tables to that slot's server."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from quaymoor.cluster.haproxy import Worker, config_text, slot_name, slot_prefix
from tests.cluster.running import needs_cluster_tools


@pytest.mark.parametrize("limits", [True, False])
def test_haproxy_accepts_the_configuration(tmp_path: Path, limits: bool) -> None:
    needs_cluster_tools()
    text = config_text(host="127.0.0.1", port=18000, slots=4, address_limits=limits,
                       workers=[Worker(0, "127.0.0.1", 18100), Worker(1, "127.0.0.1", 18101)],
                       socket_path=str(tmp_path / "haproxy.sock"))
    cfg = tmp_path / "haproxy.cfg"
    cfg.write_text(text)
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    checked = subprocess.run([haproxy, "-c", "-f", str(cfg)], capture_output=True, text=True,
                             check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    for slot in range(4):
        assert f"use-server {slot_name(slot)} if at_{slot_name(slot)}" in text
        assert f"url_param(table) -m beg {slot_prefix(slot)}" in text
    assert "server w00 127.0.0.1:18100 check" in text
    assert "server w03 127.0.0.1:1 check disabled" in text  # a spare slot
    assert ("sc_http_req_rate" in text) is limits
    # Set (never appended to): the processes' open-tables cap counts the real client.
    assert "http-request set-header X-Forwarded-For %[src]" in text


def test_slots_are_two_hex_digits() -> None:
    assert [slot_prefix(s) for s in (0, 10, 255)] == ["00", "0a", "ff"]
    with pytest.raises(ValueError, match="0 to 255"):
        slot_prefix(256)
