"""GRPO on kernel tasks with TRL: a Hugging Face causal LM acts in KernelEnv episodes, the trusted evaluation is the reward.

Generation runs in TRL's vLLM server (start it first on its own GPU), the policy trains on this process's GPU, and the
final evaluations of each batch run on an evaluation pool over --eval-gpus (one evaluation at a time per GPU):

    CUDA_VISIBLE_DEVICES=0 trl vllm-serve --model MODEL
    python scripts/train_grpo.py --model MODEL --tasks level1 --device cuda --eval-gpus 2,3 \
        --vllm-server http://localhost:8000 --out runs/grpo-level1

The model's chat template must be one TRL knows (Qwen 2.5 / Qwen 3 instruct models are). Episode records go to
OUT/episodes.jsonl as `cal rollout` writes them; TRL's checkpoints and logs to OUT/trainer.
"""
import argparse
from cuda_agent_lab.env import Limits
from cuda_agent_lab.trl_env import grpo_trainer


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--model', required=True, help='a Hugging Face model id or folder')
    ap.add_argument('--tasks', default='level1', help="names, 'level1', 'all', or a path (KernelBench, Ops-6K JSONL)")
    ap.add_argument('--device', default='cuda')
    ap.add_argument('--eval-gpus', default=None, help='GPU ids of the evaluation pool (default: all visible)')
    ap.add_argument('--vllm-server', default=None, help='base URL of `trl vllm-serve` (default: generate with transformers)')
    ap.add_argument('--num-generations', type=int, default=8)
    ap.add_argument('--batch-size', type=int, default=8, help='completions per device per step')
    ap.add_argument('--max-steps', type=int, default=100)
    ap.add_argument('--max-completion-length', type=int, default=16384)
    ap.add_argument('--max-turns', type=int, default=150, help='assistant turns per episode (the paper trains with 150)')
    ap.add_argument('--lr', type=float, default=1e-6)
    ap.add_argument('--out', default='runs/grpo')
    a = ap.parse_args()
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from cuda_agent_lab.pool import EvalPool
    tok = AutoTokenizer.from_pretrained(a.model, padding_side='left')
    model = AutoModelForCausalLM.from_pretrained(a.model, dtype='bfloat16' if a.device.startswith('cuda') else 'float32')
    vllm = dict(use_vllm=True, vllm_mode='server', vllm_server_base_url=a.vllm_server) if a.vllm_server else {}
    with EvalPool(a.device, gpus=a.eval_gpus.split(',') if a.eval_gpus else None) as pool:
        trainer = grpo_trainer(model, tok, a.tasks, a.device, a.out, pool=pool, limits=Limits(max_turns=a.max_turns),
                               num_generations=a.num_generations, per_device_train_batch_size=a.batch_size,
                               max_steps=a.max_steps, max_completion_length=a.max_completion_length,
                               max_tool_calling_iterations=a.max_turns, learning_rate=a.lr,
                               bf16=a.device.startswith('cuda'), use_cpu=a.device == 'cpu',
                               logging_steps=1, report_to='none', **vllm)
        trainer.train()
        trainer.save_model(f'{a.out}/final')


if __name__ == '__main__':
    main()
