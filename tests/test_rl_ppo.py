"""The PPO baseline (cardtable.rl.ppo): a few hundred moves, not a training run. It runs,
a seed gives the same weights, the masks hold, and saved weights play the same."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from cardtable.rl import imitation, ppo  # noqa: E402 - only where torch is installed


def small(**changes: object) -> ppo.Config:
    base = {
        "game": "bakappana", "num_envs": 8, "num_steps": 16, "updates": 3, "minutes": 0.0,
        "hidden": 32, "eval_every": 0, "final_deals": 0, "threads": 1, "kickstart_share": 0.5,
    }  # fmt: skip
    return ppo.Config(**{**base, **changes})  # type: ignore[arg-type]


def weights(trained: ppo.Trained) -> list[object]:
    return [tensor.clone() for tensor in trained.network.state_dict().values()]


@pytest.mark.parametrize(
    ("game", "network"), [("bakappana", "month"), ("koi-koi", "month-whole"), ("koi-koi", "mlp")]
)
def test_ppo_runs_within_the_masks_and_a_seed_repeats_it(game: str, network: str) -> None:
    first = ppo.train(small(game=game, network=network), say=lambda _: None)
    assert first.updates == 3 and first.moves == 3 * 16 * 8
    assert first.illegal == 0  # every sampled action was legal
    again = ppo.train(small(game=game, network=network), say=lambda _: None)
    other = ppo.train(small(game=game, network=network, seed=2), say=lambda _: None)
    assert all(torch.equal(a, b) for a, b in zip(weights(first), weights(again), strict=True))
    assert not all(torch.equal(a, b) for a, b in zip(weights(first), weights(other), strict=True))


def test_the_kickstart_imitates_the_teacher_it_is_given() -> None:
    """--teacher: the kickstart imitates another bot than the opponent (the weights move
    another way); without a kickstart the teacher changes nothing."""
    by_opponent = weights(ppo.train(small(), say=lambda _: None))
    by_strategist = weights(ppo.train(small(teacher="strategist"), say=lambda _: None))
    assert not all(torch.equal(a, b) for a, b in zip(by_opponent, by_strategist, strict=True))
    unkicked = [small(kickstart_share=0.0, teacher=name) for name in ("", "strategist")]
    plain, taught = (weights(ppo.train(config, say=lambda _: None)) for config in unkicked)
    assert all(torch.equal(a, b) for a, b in zip(plain, taught, strict=True))


def test_saved_weights_play_the_same_in_the_arena(tmp_path: Path) -> None:
    config = small(updates=2, game="koi-koi", network="month-whole")
    trained = ppo.train(config, say=lambda _: None)
    before = ppo.evaluate(trained.network, config, deals=3)
    assert before.games == 6  # each deal from both seats
    ppo.save(trained, config, None, tmp_path)
    network, loaded = ppo.load(tmp_path / "ppo.pt")
    after = ppo.evaluate(network, loaded, deals=3)
    assert (after.share, after.margin()) == (before.share, before.margin())


def test_a_run_starts_from_saved_weights_of_the_same_network(tmp_path: Path) -> None:
    """--init: a run starts where the saved one ended (on matches, from a one-round
    policy, say); a network of another shape is refused."""
    config = small(updates=2, game="koi-koi", network="month-whole")
    trained = ppo.train(config, say=lambda _: None)
    ppo.save(trained, config, None, tmp_path)
    on_matches = small(game="koi-koi", network="month-whole", rounds=6)
    fresh = ppo.make_network(ppo.encoder_for(ppo.cardtable.load("koi-koi")), on_matches)
    ppo.start_from(fresh, tmp_path / "ppo.pt", on_matches)
    started = [tensor.clone() for tensor in fresh.state_dict().values()]
    assert all(  # half precision on disk
        torch.allclose(a, b, atol=1e-2) for a, b in zip(weights(trained), started, strict=True)
    )
    tuned = ppo.train(small(game="koi-koi", network="month-whole", rounds=6, updates=1,
                            init=str(tmp_path / "ppo.pt")), say=lambda _: None)  # fmt: skip
    assert tuned.updates == 1
    with pytest.raises(ValueError, match="network"):
        ppo.train(small(game="koi-koi", network="mlp", init=str(tmp_path / "ppo.pt")))


def test_a_network_learns_a_bots_moves_and_ppo_starts_from_them(tmp_path: Path) -> None:
    """rl/imitation.py: the teacher's moves in the learner's seat (every one legal), a
    network fitted to them plays the teacher's move far more often on held-out positions
    than before, and --imitate starts a PPO run from them."""
    moves = imitation.collect(
        "koi-koi", teacher="greedy", minutes=0.03, rows=8, say=lambda _: None, rounds=3
    )
    assert len(moves) > 500
    assert moves.masks[np.arange(len(moves)), moves.actions].all()  # the teacher's moves are legal
    path = tmp_path / "moves.npz"
    moves.save(path, {"teacher": "greedy"})
    again = imitation.Moves.load(path)
    assert np.array_equal(again.actions, moves.actions)
    both = imitation.Moves.load_all([path, path])  # collections run side by side
    assert np.array_equal(both.actions, np.concatenate([moves.actions, moves.actions]))
    config = small(game="koi-koi", network="month-whole", rounds=3)
    network = ppo.make_network(ppo.encoder_for(ppo.cardtable.load("koi-koi")), config)
    shares: list[str] = []
    best = imitation.imitate(network, again, epochs=3, say=shares.append)
    before = float(shares[0].split(" in ")[1].split("%")[0]) / 100
    assert best > max(0.6, before + 0.2), shares
    files = f"{path},{path}"
    tuned = ppo.train(small(game="koi-koi", network="month-whole", rounds=3, updates=1,
                            imitate=files, imitate_epochs=1), say=lambda _: None)  # fmt: skip
    assert tuned.updates == 1 and tuned.imitation is not None and tuned.illegal == 0
    alone = ppo.train(small(game="koi-koi", network="month-whole", rounds=3, updates=0,
                            imitate=files, imitate_epochs=1), say=lambda _: None)  # fmt: skip
    assert alone.updates == 0 and alone.imitation is not None  # the imitation alone
    with pytest.raises(ValueError, match="bound the run"):
        ppo.train(small(updates=0))


def test_a_policy_is_measured_on_other_matches_than_it_learnt_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--evaluate with --rounds: a one-round policy plays 3-round matches."""
    config = small(updates=1, game="koi-koi", network="month-whole")
    ppo.save(ppo.train(config, say=lambda _: None), config, None, tmp_path)
    weights_file = str(tmp_path / "ppo.pt")
    ppo.main(["--game", "koi-koi", "--evaluate", weights_file, "--rounds", "3",
              "--final-deals", "2"])  # fmt: skip
    assert "of 4 mirrored matches" in capsys.readouterr().out
