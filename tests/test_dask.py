"""Simulation on a real Dask cluster: two worker processes on this machine give the single-process result."""

from __future__ import annotations

import pytest

import trickrules

distributed = pytest.importorskip("distributed", reason="dask[distributed] is not installed (pip install '.[dask]')")


def test_a_local_dask_cluster_gives_the_same_statistics_as_one_process() -> None:
    alone = trickrules.simulate("quadrille", deals=400, seed=21)
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            silence_logs=40,  # logging.ERROR
            timeout=60,
        ) as cluster,
        distributed.Client(cluster, timeout=60) as client,
    ):
        workers = set(client.scheduler_info()["workers"])
        assert len(workers) == 2
        with distributed.get_task_stream(client) as stream:
            on_cluster = trickrules.simulate("quadrille", deals=400, seed=21, executor=client.get_executor())
    ran = [task for task in stream.data if "play_chunk" in task["key"]]
    assert len(ran) > 1  # the chunks ran as tasks on the cluster's workers
    assert {task["worker"] for task in ran} <= workers
    assert on_cluster.statistics == alone.statistics
    assert on_cluster.to_json() == alone.to_json()
