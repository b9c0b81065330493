-- The token estimate of each model-track message, filled in once (lazily,
-- by TrackTokens) so the context in use is a SUM, never a re-estimate of
-- the whole history when a session opens.
ALTER TABLE llm_messages ADD COLUMN tokens INTEGER;
