"""``quaymoor bench server`` and ``bench load``: the whole server under load, on loopback,
with figures.

What it does, in order (one run, everything bounded in count and time):

1. Starts ``quaymoor serve --port 0 --bot-delay 0 --decision-seconds 600`` as a
   subprocess (its log goes to a temporary file, scanned at the end; its archive is a
   temporary file too) and reads its port.
2. Idle tables: reads the server's VmRSS, creates ``--tables`` lobby tables over HTTP
   (after a few warm-up tables that are not counted), reads VmRSS again: KiB per idle table.
3. Spectator fan-out: ``FANOUT_TABLES`` tables, each played by 4 player clients that do
   not think (the same play and stream checks as the load) and watched by
   ``RAW_CLIENTS // FANOUT_TABLES`` spectator websockets (hello with a null token), split
   over the client processes. Spectators only count frames and bytes (no JSON parsing but
   of the ``game_ended`` that must end every stream); runs until the games end or
   ``RAW_SECONDS * 4`` pass. Frames/s and MB/s over the first to last spectator frame, the
   mean ``update`` frame of the players and of the spectators (most are deltas), and
   spectators closed early (any close code; 4003 is a too-slow drop): must be none.
4. Raw trio-websocket fan-out: a minimal trio-websocket server in its own subprocess
   broadcasts messages of the spectators' average frame size (4096 B if none was measured)
   to the same ``RAW_CLIENTS`` clients (split over the client processes) for about 5 s, each
   connection fed through its own bounded channel; messages delivered per second. The
   fan-out ratio is the spectator frames/s over these raw messages/s: the same frame size
   and client count.
4b. Watched table (``spectated``): one table of 4 players who think 0.3 s on average
   (``--only watched --think S`` for another pace) played to its end three times, with 0,
   300 and 1,000 spectators (players in the first client process, spectators in the
   others). For each: the players' action-to-update latency (p50, p95, p99, max), the
   server's own action-to-broadcast p95, its CPU, the frames to spectators, and whether
   every spectator was welcomed, kept up (none closed early) and saw the game end. The
   target: the players' p95 under 50 ms with 1,000 spectators, every spectator kept up;
   ``bench server`` exits 1 when it is not met. ``--only watched`` runs this step alone.
5. Load: ``--client-procs`` spawned processes each create their share of ``--tables``
   tables, join ``--players`` human seats per table over HTTP and connect every seat's
   websocket (hello, welcome). When every process is ready ("go"), the tables are started,
   spread evenly over ``--start-spread`` seconds (below), and every seat plays the first
   legal action of each decision. Each stream is checked (``since`` equals the previous
   update's version, versions never go back, an update with events always moves the
   version on, a delta's patch applies to the view at its ``since`` and reaches its
   ``version``, ``game_ended`` with reason ``finished``). Latency: from sending an ``act``
   to receiving the first update whose version is above the view acted on. The load stops
   ``--seconds`` after go even if games are unfinished.
6. Prints the figures: the clients' latency overall and per 10-second window after go,
   and the server's own histograms (action-to-broadcast latency, GC pauses by generation,
   event-loop lag) from ``/metrics``, read just before go and after the load and diffed.
   The server subprocess is killed at the end, also on error or Ctrl-C.

Why the start is spread: a real site never sees 500 games start in the same instant, and
a lockstep start keeps every game in phase for the whole run (all tables reach the same
kind of decision, and the same burst of broadcasts, together), which measures an
artificial worst case again and again. Each client process spreads its own tables over
the whole spread, offset so that the processes interleave; ``--start-spread 0`` starts
every table at go. The per-window latency figures show what the start does (the first
windows, while tables are still starting, against the rest).

Clients keep to the server's per-connection rate limit (20 messages/s, burst 60) with a
slightly stricter bucket of their own; waits it causes are counted and printed.

``quaymoor bench load`` is step 5 alone, as the load proof: players think (0.5 s on
average by default) so that every game can finish within the bound; the server archives to
a temporary file; ``/status.json`` is read every second during the load for the server's
own event-loop lag (``live.event_loop_lag_ms``) and connection count. It ends with a
verdict (exit status 1 when it fails): every game finished, with every client's stream
complete and in order; and a second line on the latency target (the server's own p99
action-to-broadcast latency under 50 ms, as a histogram bucket bound), which does not
change the exit status.

``bench load --cluster N`` runs the same load through a real ``quaymoor cluster --workers
N`` (``cluster_rig``: HAProxy, N serve processes with the same serve options, its own
PostgreSQL in a temporary folder, on a free port): the clients go through HAProxy's one
address exactly as against one server (the HTTP calls, and ``/ws?table=<id>`` as the web
client opens it), and each table process is read on its own port (found in the cluster's
``/status.json`` ``processes``, with the operator token from its folder). The server's
histograms are merged over the processes (buckets summed) with the same meaning as one
process's, then given per process, as are its /status.json readings, RSS and CPU;
HAProxy's CPU and, after the load, its view of each process are printed too. With
``--compare`` the same load runs on one process first, then on the cluster, and the main
figures of both are printed side by side (``compare``).

Where each part lives: ``commands`` (the two entry points, in the order above), ``rig``
(the server and client processes), ``launch`` (starting a process that reports its port),
``cluster_rig`` (the cluster under test), ``served`` (the processes read from outside),
``load_run`` (one load through the rig), ``client_process`` (a client process's jobs),
``game_socket`` (how clients connect), ``player`` and ``spectator`` (the load's clients),
``raw_fanout`` and ``fanout`` (the trio-websocket yardstick and the fan-out steps),
``spectated`` (the watched table),
``server_http``, ``procfs`` and ``prometheus`` (reading the server from outside),
``report`` (the clients' figures and the server's CPU, memory and log),
``server_report`` (the server's own histograms and /status.json), ``verdict`` (the load
proof's verdict), ``compare`` (the side-by-side table), ``settings`` (the fixed numbers).
"""

from __future__ import annotations

from quaymoor.tools.server_bench.commands import bench_load, bench_server

__all__ = ["bench_load", "bench_server"]
