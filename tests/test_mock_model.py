import json
import urllib.error
import urllib.request
from pathlib import Path

from verified_docs.errors import Location
from verified_docs.run.mock_model import MockModel
from verified_docs.scenario.records import Step, ToolCallStep

WHERE = Location(Path("scenario.yaml"), 5)
TOOLS = [{"type": "function", "function": {"name": "deploy", "parameters": {"type": "object"}}}]


def post(mock: MockModel, body: dict, key: str | None = None) -> tuple[int, dict]:
    req = urllib.request.Request(
        mock.base_url + "/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {key or mock.api_key}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def steps() -> tuple[Step, ...]:
    return (
        Step(Location(Path("scenario.yaml"), 7), calls=(ToolCallStep("deploy", {"environment": "qa"}),)),
        Step(Location(Path("scenario.yaml"), 8), quote_last_tool_result=True, when_last_message="tool"),
    )


def test_script_is_followed_and_requests_recorded() -> None:
    with MockModel(steps(), WHERE) as mock:
        assert mock.base_url.startswith("http://127.0.0.1:") and mock.base_url.endswith("/v1")
        status, first = post(mock, {"model": "m", "messages": [{"role": "user", "content": "go"}], "tools": TOOLS})
        assert status == 200
        call = first["choices"][0]["message"]["tool_calls"][0]
        assert call["function"] == {"name": "deploy", "arguments": '{"environment": "qa"}'}
        history = [
            {"role": "user", "content": "go"},
            first["choices"][0]["message"],
            {"role": "tool", "tool_call_id": call["id"], "content": "deployed to qa"},
        ]
        status, second = post(mock, {"model": "m", "messages": history, "tools": TOOLS})
        assert status == 200
        assert second["choices"][0]["message"]["content"] == "The tool result I was shown: deployed to qa"
        assert [r.step for r in mock.requests] == [0, 1]
        assert mock.problems() == []


def test_assistant_call_without_tool_message_is_rejected_like_a_provider() -> None:
    with MockModel(steps(), WHERE) as mock:
        history = [
            {"role": "user", "content": "go"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [{"id": "call_9", "type": "function", "function": {"name": "deploy", "arguments": "{}"}}],
            },
            {"role": "user", "content": "and?"},
        ]
        status, body = post(mock, {"model": "m", "messages": history, "tools": TOOLS})
    assert status == 400
    assert body["error"]["type"] == "invalid_request_error"
    assert "did not have response messages: call_9" in body["error"]["message"]
    assert body["error"]["param"] == "messages.[2].role"


def test_call_to_an_undeclared_tool_is_rejected() -> None:
    with MockModel(steps(), WHERE) as mock:
        status, body = post(mock, {"model": "m", "messages": [{"role": "user", "content": "go"}]})
        problems = mock.problems()
    assert status == 400
    assert "which the request does not declare" in body["error"]["message"]
    assert str(problems[0]).startswith("scenario.yaml:7: unexpected request #1 to the mock model at step 1 of 2")


def test_request_after_the_script_ends_is_reported_with_the_request() -> None:
    with MockModel((), WHERE) as mock:
        status, _ = post(mock, {"model": "m", "messages": [{"role": "user", "content": "hello there"}]})
        (problem,) = mock.problems()
    assert status == 400
    assert str(problem.where) == "scenario.yaml:5"
    assert "after the last step: the script has 0 step(s) and all were used" in problem.what
    assert problem.details == ("request messages: user: 'hello there'",)


def test_unused_steps_and_bad_key() -> None:
    with MockModel(steps(), WHERE) as mock:
        status, body = post(mock, {"model": "m", "messages": [{"role": "user", "content": "x"}]}, key="wrong")
        (problem,) = mock.problems()
    assert status == 401 and body["error"]["type"] == "invalid_api_key"
    assert str(problem) == (
        'scenario.yaml:7: 2 scripted step(s) were never requested, starting with: call deploy({"environment": "qa"})'
    )


def test_streaming_request_gets_openai_chunks() -> None:
    with MockModel(steps(), WHERE) as mock:
        req = urllib.request.Request(
            mock.base_url + "/chat/completions",
            data=json.dumps(
                {
                    "model": "m",
                    "stream": True,
                    "stream_options": {"include_usage": True},
                    "messages": [{"role": "user", "content": "go"}],
                    "tools": TOOLS,
                }
            ).encode(),
            headers={"Authorization": f"Bearer {mock.api_key}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=5) as r:
            assert r.headers["Content-Type"] == "text/event-stream"
            lines = [line for line in r.read().decode().split("\n\n") if line]
    assert lines[-1] == "data: [DONE]"
    chunks = [json.loads(line[len("data: ") :]) for line in lines[:-1]]
    calls = [
        c["choices"][0]["delta"]["tool_calls"][0]
        for c in chunks
        if c["choices"] and "tool_calls" in c["choices"][0]["delta"]
    ]
    assert calls[0]["function"]["name"] == "deploy" and calls[1]["function"]["arguments"] == '{"environment": "qa"}'
    assert chunks[-2]["choices"][0]["finish_reason"] == "tool_calls"
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"]["total_tokens"] > 0


def post_messages(mock: MockModel, body: dict, key: str | None = None) -> tuple[int, dict]:
    req = urllib.request.Request(
        mock.base_url + "/messages",
        data=json.dumps(body).encode(),
        headers={
            "x-api-key": key or mock.api_key,
            "anthropic-version": "2023-06-01",
            "Content-Type": "application/json",
        },
    )
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


ANTHROPIC_TOOLS = [{"name": "deploy", "description": "", "input_schema": {"type": "object"}}]


def test_anthropic_messages_are_served_and_recorded_in_the_chat_shape() -> None:
    talking = (
        Step(
            Location(Path("scenario.yaml"), 7), calls=(ToolCallStep("deploy", {"environment": "qa"}),), say="Deploying."
        ),
        Step(Location(Path("scenario.yaml"), 8), quote_last_tool_result=True, when_last_message="tool"),
    )
    with MockModel(talking, WHERE) as mock:
        status, first = post_messages(
            mock,
            {
                "model": "m",
                "max_tokens": 10,
                "system": "be brief",
                "messages": [{"role": "user", "content": "go"}],
                "tools": ANTHROPIC_TOOLS,
            },
        )
        assert status == 200 and first["type"] == "message" and first["stop_reason"] == "tool_use"
        text, use = first["content"]
        assert text == {"type": "text", "text": "Deploying."}
        assert (use["type"], use["name"], use["input"]) == ("tool_use", "deploy", {"environment": "qa"})
        history = [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": first["content"]},
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": use["id"], "content": "deployed to qa", "is_error": False}
                ],
            },
        ]
        status, second = post_messages(
            mock, {"model": "m", "max_tokens": 10, "messages": history, "tools": ANTHROPIC_TOOLS}
        )
        assert status == 200 and second["stop_reason"] == "end_turn"
        assert second["content"] == [{"type": "text", "text": "The tool result I was shown: deployed to qa"}]
        recorded = mock.chat_requests()[1].body["messages"]
        assert mock.problems() == []
    assert recorded == [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": "Deploying.",
            "tool_calls": [
                {
                    "id": use["id"],
                    "type": "function",
                    "function": {"name": "deploy", "arguments": '{"environment": "qa"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": use["id"], "content": "deployed to qa"},
    ]


def test_anthropic_request_with_an_unanswered_tool_use_is_refused_in_anthropic_shape() -> None:
    with MockModel(steps(), WHERE) as mock:
        history = [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_9", "name": "deploy", "input": {}}]},
            {"role": "user", "content": "and?"},
        ]
        status, body = post_messages(
            mock, {"model": "m", "max_tokens": 10, "messages": history, "tools": ANTHROPIC_TOOLS}
        )
        bad_key, _ = post_messages(mock, {"model": "m", "messages": [{"role": "user", "content": "x"}]}, key="wrong")
        streamed, refused = post_messages(
            mock, {"model": "m", "stream": True, "messages": [{"role": "user", "content": "x"}]}
        )
    assert status == 400 and body["type"] == "error" and body["error"]["type"] == "invalid_request_error"
    assert "did not have response messages: toolu_9" in body["error"]["message"]
    assert bad_key == 401
    assert (
        streamed == 400
        and refused["error"]["message"] == "this mock model does not stream the Anthropic Messages format"
    )
