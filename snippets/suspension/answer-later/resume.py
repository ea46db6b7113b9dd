"""Answer later, phase 2: the human replied, so resume the parked run with
that reply.

Usage: python resume.py <request id> <reply>
"""
import asyncio
import json
import os
import sys

from toolnexus import Answer, Request, create_client, create_toolkit

# The same tool as phase 1, so the same request id.
from park import ask_human, open_db


# --8<-- [start:one-shot]
class Refused(Exception):
    """The stored Answer is not for this Request; client.run raises it on."""


def one_shot(answer: Answer):
    """A wait_for that hands over one stored Answer, once, to its Request.

    toolnexus does not compare Answer.id with Request.id: this check is ours.
    """
    used = False

    def wait_for(request: Request) -> Answer:
        nonlocal used
        if request.id != answer.id:
            raise Refused(
                f"answer {answer.id} does not belong to request {request.id}"
            )
        if used:
            raise Refused(  # not run: no second call asks the same here
                f"request {request.id} suspended again; park it instead"
            )
        used = True
        return answer

    return wait_for
# --8<-- [end:one-shot]


async def main(request_id: str, reply: str) -> None:
    # --8<-- [start:load]
    db = open_db()
    row = db.execute(
        "SELECT request, messages FROM parked WHERE id = ? AND answered = 0",
        (request_id,),
    ).fetchone()
    if row is None:
        sys.exit(  # not run: the request is parked and open here
            f"no open request with id {request_id}"
        )
    request = Request(**json.loads(row[0]))
    messages = json.loads(row[1])
    answer = Answer(id=request.id, ok=True, data={"value": reply})
    # --8<-- [end:load]

    toolkit = await create_toolkit(extra_tools=[ask_human], builtins=False)
    # --8<-- [start:rewind]
    # Rewind: everything before the halted user turn is history, and that
    # turn is asked again. If the model makes the same call, its tool
    # suspends with the same id as before and the one-shot wait_for answers
    # it with the stored Answer. If it asks something else, the ids differ
    # and wait_for refuses.
    turn = max(i for i, m in enumerate(messages) if m["role"] == "user")
    history, prompt = messages[:turn], messages[turn]["content"]
    client = create_client(
        base_url=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        style="openai",
        model="gpt-4o-mini",
        wait_for=one_shot(answer),
    )
    try:
        result = await client.run(prompt, toolkit, history=history)
    except Refused as refused:  # run raises what wait_for raised
        print(f"not resumed: {refused}")
        sys.exit(1)  # the request stays parked and open
    # --8<-- [end:rewind]

    print(f"status: {result.status}")
    print(f"model said: {result.text}")
    if result.status == "done":
        with db:
            db.execute(
                "UPDATE parked SET answered = 1 WHERE id = ?", (request.id,)
            )
        print(f"marked {request.id} answered")
    db.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
