"""The Slack bot (contract §5, `POST /slack/events`): Slack's Bolt for Python inside the service's FastAPI app.

`router` mounts the endpoint and `bolt` builds the Bolt app from `settings`; `listeners` answer slash
commands, mentions, thread follow-ups, direct messages and button clicks through `answering` (the process's
one assistant and store); `threads` turns a Slack thread into history; `blocks` renders answers as Block Kit;
`dedupe` keeps Slack's retries and replayed requests from doing anything twice.
"""
