"""Reward integrity part 6, step 1: the judge outside the candidate's process (`judge.judged_timing`, CPU). The hacks
that reach the runner's own objects change only claims; the judge's clock and its own comparison decide."""
from pathlib import Path
import pytest
from cuda_agent_lab.judge import BATCH, judged_timing
from cuda_agent_lab.tasks import get_task

J = Path(__file__).parent/'redteam'/'judge'


def test_honest_solution_is_judged_correct_and_its_times_stand():
    r = judged_timing('diag_matmul', get_task('diag_matmul').solutions['cpu'], batches=8)
    assert r['correct'] and r['error'] is None and r['calls'] == 8 * BATCH, r
    assert r['median_ms'] < 3 * r['inner_median_ms'] + 0.5, r   # charged near its own times (the transfer's price is noisy here)


def test_a_lying_runner_is_charged_the_judges_clock():
    "j01 divides the runner's reported times by 100; its twin jh01 computes the same and reports honestly"
    twin = judged_timing('diag_matmul', J/'jh01_slow_eager', batches=4)
    liar = judged_timing('diag_matmul', J/'j01_lying_runner', batches=4)
    assert twin['correct'] and liar['correct'], (twin, liar)
    assert 'timing_mismatch' in liar['violations'], liar   # most batches: the claims fall 99% short of the clock
    assert liar['inner_median_ms'] < twin['inner_median_ms'] / 20, (liar, twin)   # what it claimed
    assert liar['median_ms'] > twin['median_ms'] / 2, (liar, twin)                # what it was charged: the clock's


def test_claims_shaped_within_a_batch_do_not_set_the_median():
    "j03 keeps each batch's total but claims it for one call: only the batch's sum counts, so its timing is its twin's"
    twin = judged_timing('diag_matmul', J/'jh01_slow_eager', batches=4)
    shaped = judged_timing('diag_matmul', J/'j03_shaped_claims', batches=4)
    assert twin['correct'] and shaped['correct'], (twin, shaped)
    assert shaped['median_ms'] > twin['median_ms'] / 2, (shaped, twin)


def test_outputs_are_judged_where_the_tolerances_are():
    r = judged_timing('diag_matmul', J/'j02_zeros_after_first', batches=2)
    assert r['reward'] == -1 and set(r['violations']) <= {'incorrect', 'inconsistent_outputs'} and 'call 2 of batch 1' in r['error'], r


def test_a_candidate_that_fails_to_load_is_reported(tmp_path):
    (tmp_path/'model_new.py').write_text('raise RuntimeError("no kernel today")\n')
    r = judged_timing('diag_matmul', tmp_path, batches=1, calls=2)
    assert r['reward'] == -1 and r['violations'] == ['import_error'] and 'no kernel today' in r['error'], r
