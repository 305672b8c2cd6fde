"""A Jupyter-native workbench for agentic RL on CUDA kernel generation: tasks, a trusted sandbox, a discrete reward, rollouts and widgets

Modules:

- `cuda_agent_lab.policy`: A scripted expert that needs no model, replays of recorded episodes, any OpenAI-compatible server with tool calling, and a small server that makes any of them look like one.
- `cuda_agent_lab.pool`: An evaluation pool: one evaluation at a time per GPU in a warm, never-used process, kernels compiled ahead on the CPU, on this machine or on Ray, with results streamed back as they finish and sweeps that resume where they stopped."""

__version__ = "0.0.1"
