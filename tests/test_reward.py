"Every branch of the rewards in `cuda_agent_lab.reward`"
import math
import pytest
from cuda_agent_lab.reward import faster, discrete_reward, speedup_reward, log_speedup_reward, compute_reward, REWARDS


@pytest.mark.parametrize('t,t0,expected', [(90, 100, True), (95, 100, False), (0.95, 1.0, False), (9.5, 10, False),
                                           (100, 100, False), (120, 100, False), (None, 100, False), (1, None, False), (1, 0, False)])
def test_faster(t, t0, expected):
    assert faster(t, t0) is expected


@pytest.mark.parametrize('correct,t,te,tc,r', [
    (False, 1.0, 10.0, 10.0, -1), (True, 1.0, 10.0, 10.0, 3), (True, 8.0, 10.0, 5.0, 2), (True, 8.0, 5.0, 10.0, 1),
    (True, 12.0, 10.0, 10.0, 1), (True, 9.5, 10.0, 20.0, 1), (True, 9.5, 11.0, 10.0, 2),
    (True, 1.0, 10.0, None, 2), (True, 1.0, None, 10.0, 1), (True, None, 10.0, 10.0, 1), (False, None, None, None, -1)])
def test_discrete(correct, t, te, tc, r):
    assert discrete_reward(correct, t, te, tc) == r


def test_continuous():
    assert speedup_reward(True, 2.0, 10.0, 8.0) == 4.0
    assert speedup_reward(True, 2.0, 10.0, None) == 5.0
    assert speedup_reward(False, 2.0, 10.0, 8.0) == -1.0
    assert speedup_reward(True, None, 10.0, 8.0) == 0.0
    assert log_speedup_reward(True, 2.0, 10.0, 8.0) == 2.0
    assert log_speedup_reward(True, 1.0, 10.0, 1000.0) == 4.0
    assert log_speedup_reward(True, 1000.0, 1.0, 1.0) == -4.0
    assert log_speedup_reward(False, 1.0, 10.0, 10.0) == -5.0
    assert log_speedup_reward(True, None, 10.0, 10.0) == -4.0
    assert log_speedup_reward(True, 1.0, 1.0, 1.5) == pytest.approx(math.log2(1.5))


def test_compute_reward():
    v = dict(correct=True, t_candidate_ms=2.0, t_eager_ms=10.0, t_compile_ms=8.0)
    assert [compute_reward(n, v) for n in REWARDS] == [3.0, 4.0, 2.0]
    assert compute_reward('discrete', {}) == -1.0
    with pytest.raises(KeyError, match='choose one of discrete, speedup, log_speedup'): compute_reward('nope', v)
