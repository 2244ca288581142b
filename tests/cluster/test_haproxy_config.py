"""The generated haproxy.cfg is one HAProxy accepts (``haproxy -c``), with and without the
per-address limits, and it routes every slot's tables to that slot's server; a draining
process is at weight 0; ``quaymoor haproxy-config`` prints one for table processes on
several hosts that HAProxy accepts too, and refuses bad table hosts."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from quaymoor.cli import main
from quaymoor.cluster.haproxy import Worker, config_text, slot_name, slot_prefix, table_hosts
from tests.cluster.running import needs_cluster_tools


def haproxy_checks(cfg: Path) -> subprocess.CompletedProcess[str]:
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    return subprocess.run([haproxy, "-c", "-f", str(cfg)], capture_output=True, text=True,
                          check=False)


@pytest.mark.parametrize("limits", [True, False])
def test_haproxy_accepts_the_configuration(tmp_path: Path, limits: bool) -> None:
    needs_cluster_tools()
    text = config_text(host="127.0.0.1", port=18000, slots=4, address_limits=limits,
                       workers=[Worker(0, "127.0.0.1", 18100),
                                Worker(1, "127.0.0.1", 18101, draining=True)],
                       socket_path=str(tmp_path / "haproxy.sock"))
    cfg = tmp_path / "haproxy.cfg"
    cfg.write_text(text)
    checked = haproxy_checks(cfg)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    for slot in range(4):
        assert f"use-server {slot_name(slot)} if at_{slot_name(slot)}" in text
        assert f"url_param(table) -m beg {slot_prefix(slot)}" in text
    assert "server w00 127.0.0.1:18100 check\n" in text
    assert "server w01 127.0.0.1:18101 check weight 0\n" in text  # draining
    assert "server w03 127.0.0.1:1 check disabled" in text  # a spare slot
    assert ("sc_http_req_rate" in text) is limits
    # Set (never appended to): the processes' open-tables cap counts the real client.
    assert "http-request set-header X-Forwarded-For %[src]" in text


def test_slots_are_two_hex_digits() -> None:
    assert [slot_prefix(s) for s in (0, 10, 255)] == ["00", "0a", "ff"]
    with pytest.raises(ValueError, match="0 to 255"):
        slot_prefix(256)


def test_haproxy_config_prints_one_for_several_hosts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    needs_cluster_tools()
    code = main(["haproxy-config", "--table-host", "10.0.0.2:8001",
                 "--table-host", "w05=10.0.0.3:8001", "--table-host", "10.0.0.3:8002",
                 "--port", "18000", "--socket", str(tmp_path / "haproxy.sock")])
    text = capsys.readouterr().out
    assert code == 0
    cfg = tmp_path / "haproxy.cfg"
    cfg.write_text(text)
    checked = haproxy_checks(cfg)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    # The named slot kept, the others the lowest free ones, six slots (twice the hosts).
    assert "server w00 10.0.0.2:8001 check\n" in text
    assert "server w01 10.0.0.3:8002 check\n" in text
    assert "server w05 10.0.0.3:8001 check\n" in text
    assert text.count("127.0.0.1:1 check disabled") == 3 and "w06" not in text
    assert "bind 0.0.0.0:18000" in text
    # One home for the configuration: the same text quaymoor cluster writes.
    assert text == config_text(host="0.0.0.0", port=18000, slots=6, maxconn=10_000,
                               socket_path=str(tmp_path / "haproxy.sock"),
                               workers=table_hosts(["10.0.0.2:8001", "w05=10.0.0.3:8001",
                                                    "10.0.0.3:8002"]))


@pytest.mark.parametrize("hosts", [["10.0.0.2"], ["10.0.0.2:0"], ["10.0.0.2:99999"],
                                   ["w5=10.0.0.2:8001"], ["wzz=10.0.0.2:8001"],
                                   ["w01=10.0.0.2:8001", "w01=10.0.0.3:8001"],
                                   ["bad host:8001"], [":8001"]])
def test_haproxy_config_refuses_bad_table_hosts(
        hosts: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["haproxy-config"]
    for host in hosts:
        argv += ["--table-host", host]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "quaymoor haproxy-config:" in captured.err


def test_haproxy_config_slots_above_the_highest() -> None:
    assert main(["haproxy-config", "--table-host", "w07=10.0.0.2:8001", "--slots", "4"]) == 2


def test_every_429_haproxy_sends_carries_retry_after_and_the_servers_body() -> None:
    text = config_text(host="127.0.0.1", port=18000, slots=4, address_limits=True,
                       workers=[Worker(0, "127.0.0.1", 18100)], socket_path="/tmp/h.sock")
    refusals = [line for line in text.splitlines() if "429" in line]
    assert refusals
    for line in refusals:
        assert "hdr Retry-After 60 " in line, line
        assert "content-type application/json" in line
        assert '"code": "too_many_new_tables"' in line
