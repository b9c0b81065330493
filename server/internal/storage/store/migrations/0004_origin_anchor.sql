-- origin: who wrote a user-role message. '' is the person; anything else
-- (the scheduler's step and closing prompts, a button's "continue", a
-- sub-agent's task) is the engine's, which the UI must not show as the
-- user's words. The model still reads the text.
ALTER TABLE messages ADD COLUMN origin TEXT NOT NULL DEFAULT '';
-- Where a sub-agent's child session ran in its parent's transcript: the
-- parent's message that was open and the tool call that started it (''
-- for a reconcile step), so a reopened session can show the group there.
ALTER TABLE sessions ADD COLUMN parent_message_id TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN parent_call_id TEXT NOT NULL DEFAULT '';
CREATE INDEX sessions_by_parent_message ON sessions(parent_id, parent_message_id) WHERE parent_message_id != '';
