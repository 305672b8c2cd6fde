from cuda_agent_lab.cli import main

main()
