-- Two editor windows on one workspace share this database, each through
-- its own sidecar. owner names the process (its lease, owner.go) that
-- wrote a pending message or confirmation, so a starting process recovers
-- only what a process that is gone left pending, never another window's
-- running turn. '' is a row written before owners were recorded: nobody's.
ALTER TABLE messages ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE confirmations ADD COLUMN owner TEXT NOT NULL DEFAULT '';
-- Opening a session checks its pending messages: without this index that
-- read would scan every message of the session.
CREATE INDEX messages_pending ON messages(session_id) WHERE status = 'pending';

-- Databases merged into this one (merge.go): the per-window storage slots
-- that kept sessions before they belonged to the workspace. A source is
-- merged once, so a session deleted here never comes back from it.
CREATE TABLE merged_stores (
    source    TEXT    PRIMARY KEY,
    merged_at INTEGER NOT NULL,
    sessions  INTEGER NOT NULL
) WITHOUT ROWID;
