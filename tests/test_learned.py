"""The learned evaluator: self-play data that says what happened and hides what it must,
training that learns, numpy play-time inference equal to the trained network, the shipped
weights better than guessing, and the search's leaf value reading only its seat's view."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import cardtable
from cardtable.agents.ismcts import ISMCTSAgent, match_rewards
from cardtable.agents.learned import LearnedLeaf, two_seat_rewards
from cardtable.agents.network import Network, context_mask
from cardtable.cli import app
from cardtable.core.rng import Rng
from cardtable.games.hanafuda.bots import trained_network
from cardtable.games.hanafuda.encoding import HanafudaEncoder
from cardtable.rl.encoding import observe
from cardtable.training.pipeline import generate
from cardtable.training.selfplay import Samples, play_rounds
from tests.counts import count
from tests.test_ismcts import midgame

torch = pytest.importorskip("torch")  # the training extra; make test installs it
from cardtable.training.train import PolicyMarginNet, Settings, train  # noqa: E402


@pytest.fixture(scope="module")
def samples() -> Samples:
    return play_rounds("koi-koi", rounds=60, bots=("strategist", "greedy"), seed=5)


def test_self_play_rows_say_what_happened(samples: Samples) -> None:
    observations = samples.observations()
    assert observations.shape == (len(samples), HanafudaEncoder.observation_size)
    # the match context is not shown to the net
    assert not observations[:, context_mask(HanafudaEncoder())].any()
    # rows come in pairs, the mover first: a move to learn only on the mover's row
    assert (samples.actions[1::2] == -1).all()
    moves = samples.moves()
    assert moves.size > 0.8 * len(samples) / 2
    masks = samples.masks(moves)
    assert masks[np.arange(moves.size), samples.actions[moves]].all()  # the move was legal
    assert not samples.masks(np.arange(1, len(samples), 2)).any()
    # the two views of a moment disagree only in the hand and the seat-relative blocks
    assert (samples.margins == -samples.margins[samples.partner()]).all()
    assert samples.margins.any()


def test_self_play_margins_are_the_rounds_scores() -> None:
    game = cardtable.load("koi-koi", rounds=1)
    one = play_rounds("koi-koi", rounds=1, bots=("greedy",), epsilon=0.0, seed=3)
    # the same round played again by the same bot gives the margin the rows hold
    state = game.new_state(seed=3 * 1_000_003)
    from cardtable.agents import make_agent

    bot = make_agent("greedy", "koi-koi", 3)
    first = min(state.to_move)
    while not state.is_over:
        mover = min(state.to_move)
        state.apply(mover, bot.choose(state, mover))
    scores = state.round_scores(0)
    assert one.margins[0] == scores[first] - scores[1 - first]


def test_self_play_shows_no_hidden_card() -> None:
    """A row is the seat's observation: re-dealing what the seat cannot see leaves it."""
    encoder = HanafudaEncoder()
    for seed in range(20):
        state = midgame("koi-koi", 2, seed, moves=seed % 9)
        seat = min(state.to_move)
        poisoned = state.determinize(seat, Rng(500 + seed))
        assert (observe(encoder, state, seat) == observe(encoder, poisoned, seat)).all()


@pytest.mark.slow  # a Ray cluster starts
def test_data_does_not_depend_on_the_processes_or_machines() -> None:
    heard: list[int] = []
    one = generate("koi-koi", 12, ("greedy",), 0.2, seed=4, jobs=1, chunk=5)
    two = generate("koi-koi", 12, ("greedy",), 0.2, seed=4, jobs=2, chunk=5, progress=heard.append)
    assert sorted(heard) == heard and heard[-1] == 12 and len(heard) == 3  # chunks of 5, 5, 2
    on_ray = generate("koi-koi", 12, ("greedy",), 0.2, seed=4, jobs=2, chunk=5, backend="ray")
    for other in (two, on_ray):
        assert (one.cards == other.cards).all() and (one.margins == other.margins).all()
        assert (one.actions == other.actions).all()
    other_seed = generate("koi-koi", 12, ("greedy",), 0.2, seed=5, chunk=5)
    assert other_seed.margins.tolist() != one.margins.tolist()


def test_numpy_inference_computes_what_torch_trained(samples: Samples, tmp_path: Path) -> None:
    network, run = train(samples, "koi-koi", Settings(hidden=32, epochs=1, batch=256))
    path = tmp_path / "net.npz"
    network.save(path)
    loaded = Network.load(path)
    torch_net = PolicyMarginNet(samples.observations().shape[1], 32, 81, samples.action_size)
    torch_net.load(loaded)
    rows = samples.observations(np.arange(40))
    margin, policy = loaded.forward(rows)
    with torch.no_grad():
        expected_margin, expected_policy = torch_net(torch.from_numpy(rows))
    assert np.allclose(margin, expected_margin.numpy(), atol=1e-4)
    assert np.allclose(policy, expected_policy.numpy(), atol=1e-4)
    # the search's sparse path gives the same distribution
    bits = 7 * 48
    for row in rows[:10]:
        fast = loaded.margin_chances(row, bits)
        assert np.allclose(fast, loaded.margin_distribution(row[None, :])[0], atol=1e-6)
    assert run.epochs[0].epoch == 1 and loaded.game == "koi-koi"


def marginal_log_loss(train_margins: np.ndarray, test_margins: np.ndarray, limit: int) -> float:
    """The log loss of guessing the training data's margin frequencies for every position."""
    counts = np.bincount(np.clip(train_margins, -limit, limit) + limit, minlength=2 * limit + 1)
    chances = (counts + 1) / (counts + 1).sum()
    return float(-np.log(chances[np.clip(test_margins, -limit, limit) + limit]).mean())


def net_log_loss(network: Network, test: Samples) -> float:
    chances = network.margin_distribution(test.observations())
    limit = network.margin_limit
    index = np.clip(test.margins.astype(np.int64), -limit, limit) + limit
    return float(-np.log(chances[np.arange(len(test)), index]).mean())


def test_training_learns_more_than_the_margins_frequencies() -> None:
    data = play_rounds("koi-koi", rounds=1500, bots=("greedy",), epsilon=0.1, seed=11)
    network, run = train(data, "koi-koi", Settings(hidden=64, epochs=3, learning_rate=3e-3))
    test = play_rounds("koi-koi", rounds=300, bots=("greedy",), epsilon=0.1, seed=12)
    guess = marginal_log_loss(data.margins.astype(np.int64), test.margins.astype(np.int64), 40)
    assert net_log_loss(network, test) < guess - 0.05
    assert run.epochs[-1].train_loss < run.epochs[0].train_loss


def test_the_shipped_network_reads_rounds_better_than_guessing() -> None:
    network = trained_network("koi-koi")
    assert network is not None, "the package ships the koi-koi network"
    assert network.weights["trunk0"][0].shape[0] == HanafudaEncoder.observation_size
    assert network.weights["policy"][0].shape[1] == HanafudaEncoder.action_size
    # fresh rounds the training never saw (its seeds are drawn from the run's seed)
    test = play_rounds("koi-koi", rounds=300, bots=("strategist", "greedy"), seed=987_654)
    stages = network.info["stages"]
    assert isinstance(stages, list) and all(stage["epochs"] for stage in stages)
    spread = np.sqrt(np.mean(test.margins.astype(np.float64) ** 2))
    expected = network.margin_distribution(test.observations()) @ network.margins
    error = np.sqrt(np.mean((expected - test.margins) ** 2))
    assert error < 0.95 * spread
    guess = marginal_log_loss(test.margins.astype(np.int64), test.margins.astype(np.int64), 40)
    assert net_log_loss(network, test) < guess - 0.05


@settings(max_examples=count(300), deadline=None)
@given(
    st.integers(-60, 60),
    st.integers(-60, 60),
    st.floats(0.5, 30),
    st.integers(0, 11),
)
def test_leaf_rewards_are_the_searchs_match_rewards(
    mine: int, theirs: int, scale: float, rounds_left: int
) -> None:
    vectorized = two_seat_rewards(np.array([float(mine - theirs)]), scale, rounds_left)[0]
    assert vectorized == pytest.approx(match_rewards((mine, theirs), scale, rounds_left)[0])


def test_the_leaf_value_reads_only_the_searching_seats_view() -> None:
    network = trained_network("koi-koi")
    assert network is not None
    leaf = LearnedLeaf(network, HanafudaEncoder())
    changed = 0
    for seed in range(12):
        state = midgame("koi-koi", 2, seed, moves=2 + seed % 7)
        seat = min(state.to_move)
        poisoned = state.determinize(seat, Rng(77 + seed))
        real = leaf.rewards(state, seat, 8.0, 0)
        assert real == leaf.rewards(poisoned, seat, 8.0, 0)
        assert sum(real) == pytest.approx(1.0)
        # the other seat's view of the same position is valued otherwise
        changed += leaf.rewards(state, 1 - seat, 8.0, 0) != real
    assert changed >= 6


def test_a_search_with_the_leaf_value_plays_legally_and_reads_no_hidden_card() -> None:
    network = trained_network("koi-koi")
    assert network is not None
    for seed in range(4):
        state = midgame("koi-koi", 2, seed, moves=3 + seed)
        seat = min(state.to_move)
        poisoned = state.determinize(seat, Rng(1000 + seed))

        def search(share: float, seed: int = seed) -> ISMCTSAgent:
            return ISMCTSAgent(
                iterations=80, seed=seed, leaf=LearnedLeaf(network, HanafudaEncoder()),
                leaf_share=share,
            )  # fmt: skip

        for share in (1.0, 0.5):
            move = search(share).choose(state, seat)
            assert move in state.legal_actions(seat)
            assert move == search(share).choose(poisoned, seat)


def test_the_train_command_writes_weights_log_and_curves(tmp_path: Path) -> None:
    out, log, curves = tmp_path / "w.npz", tmp_path / "run.json", tmp_path / "curves.png"
    result = CliRunner().invoke(
        app,
        ["train", "koi-koi", "--rounds", "40", "--epochs", "2", "--hidden", "16",
         "--out", str(out), "--log", str(log), "--curves", str(curves)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "epoch 2" in result.output
    assert Network.load(out).game == "koi-koi"
    record = json.loads(log.read_text())
    assert record["rounds"] == 40 and len(record["epochs"]) == 2
    assert curves.read_bytes().startswith(b"\x89PNG")
    wrong = CliRunner().invoke(app, ["train", "koi-koi", "--bots", "nobody", "--out", str(out)])
    assert wrong.exit_code == 2 and "unknown bot" in wrong.output
    cluster = CliRunner().invoke(app, ["train", "koi-koi", "--backend", "dask", "--out", str(out)])
    assert cluster.exit_code == 2 and "local or ray, not 'dask'" in cluster.output


def test_the_train_command_keeps_its_self_play_and_goes_on_from_weights(tmp_path: Path) -> None:
    data, first, second = tmp_path / "play.npz", tmp_path / "one.npz", tmp_path / "two.npz"
    common = ["train", "koi-koi", "--rounds", "30", "--epochs", "1", "--hidden", "16"]
    made = CliRunner().invoke(app, [*common, "--data", str(data), "--out", str(first)])
    assert made.exit_code == 0, made.output
    assert Samples.load(str(data)).recipe["rounds"] == 30
    again = CliRunner().invoke(
        app, [*common, "--data", str(data), "--start", str(first), "--out", str(second)]
    )
    assert again.exit_code == 0, again.output
    assert "self-play read from" in again.output
    assert len(Network.load(second).stages) == 2  # the first run's, then this one's
    other = CliRunner().invoke(
        app, ["train", "koi-koi", "--rounds", "31", "--data", str(data), "--out", str(second)]
    )
    assert other.exit_code == 2 and "holds other self-play" in other.output
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not weights")
    bad = CliRunner().invoke(app, [*common, "--start", str(broken), "--out", str(second)])
    assert bad.exit_code == 2 and "Error" in bad.output
