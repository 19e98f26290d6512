"""The Cityfight flow registry (envs.engine.flow): rules register their tasks and decision answers here."""
from envs.engine.flow import Flow

FLOW = Flow()
task = FLOW.task
answer = FLOW.answer
