"""POST /v1/feedback: a thumbs up or down on an answer, stored before the 201 is sent."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, status
from fastapi.concurrency import run_in_threadpool

from api.deps import StoreDep
from api.schemas import ErrorBody, FeedbackReceipt, FeedbackRequest

router = APIRouter(prefix="/v1", tags=["feedback"])


@router.post(
    "/feedback",
    status_code=status.HTTP_201_CREATED,
    response_model=FeedbackReceipt,
    responses={404: {"model": ErrorBody, "description": "No answer has this id."}},
)
async def feedback(body: FeedbackRequest, store: StoreDep) -> FeedbackReceipt:
    """Feedback on an answer this service gave (answers are logged before they are returned)."""
    row = await run_in_threadpool(store.add_feedback, body.answer_id, body.rating, body.comment)
    if row is None:
        raise HTTPException(404, f"no answer has the id '{body.answer_id}'")
    return FeedbackReceipt(id=row.id, answer_id=row.answer_id, rating=body.rating, created=row.created)
