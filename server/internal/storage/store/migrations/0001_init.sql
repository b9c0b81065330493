-- Times are Unix milliseconds (UTC). Booleans are 0/1 integers.

CREATE TABLE sessions (
    id                TEXT PRIMARY KEY,
    -- Child sessions (sub-agents, reviewers) die with their parent.
    parent_id         TEXT REFERENCES sessions(id) ON DELETE CASCADE,
    title             TEXT    NOT NULL DEFAULT '',
    title_set_by_user INTEGER NOT NULL DEFAULT 0,
    model             TEXT    NOT NULL DEFAULT '',
    status            TEXT    NOT NULL DEFAULT 'active',
    kind              TEXT    NOT NULL DEFAULT 'chat',
    hidden            INTEGER NOT NULL DEFAULT 0,
    created_at        INTEGER NOT NULL,
    updated_at        INTEGER NOT NULL,
    -- Denormalised so that listing and seq allocation stay O(1) however long
    -- the session grows; maintained in the same transaction as every insert.
    message_count     INTEGER NOT NULL DEFAULT 0,
    last_seq          INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX sessions_by_updated ON sessions(updated_at DESC, id DESC);
CREATE INDEX sessions_by_parent ON sessions(parent_id);

CREATE TABLE messages (
    id              TEXT PRIMARY KEY,
    session_id      TEXT    NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,
    -- No foreign key: a reply may outlive what it replied to (imports,
    -- partial deletes), and a dangling id is harmless.
    reply_to        TEXT    NOT NULL DEFAULT '',
    role            TEXT    NOT NULL CHECK (role IN ('user', 'assistant', 'tool', 'event')),
    sub_agent_tag   TEXT    NOT NULL DEFAULT '',
    hidden_from_llm INTEGER NOT NULL DEFAULT 0,
    btw_branch      TEXT    NOT NULL DEFAULT '',
    status          TEXT    NOT NULL CHECK (status IN ('pending', 'done', 'error', 'cancelled')),
    usage           TEXT,
    created_at      INTEGER NOT NULL,
    updated_at      INTEGER NOT NULL,
    UNIQUE (session_id, seq)
);

-- One row per part so that a streaming flush rewrites only the parts that
-- changed, and so that FTS can index text parts through triggers.
CREATE TABLE message_parts (
    id         INTEGER PRIMARY KEY,
    message_id TEXT    NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    idx        INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('text', 'reasoning', 'tool_call', 'tool_result', 'notice')),
    -- Plain text for text and reasoning parts, '' otherwise.
    text       TEXT    NOT NULL DEFAULT '',
    -- JSON of the variant for tool_call, tool_result and notice parts.
    data       TEXT,
    UNIQUE (message_id, idx)
);

-- Trigram tokenisation finds substrings in any script (CJK has no spaces
-- for unicode61 to split on); terms shorter than three characters are
-- matched by the store with instr() instead.
CREATE VIRTUAL TABLE message_text_fts USING fts5(
    text,
    content = 'message_parts',
    content_rowid = 'id',
    tokenize = 'trigram'
);

CREATE TRIGGER message_parts_fts_insert AFTER INSERT ON message_parts
WHEN new.kind = 'text' BEGIN
    INSERT INTO message_text_fts(rowid, text) VALUES (new.id, new.text);
END;

CREATE TRIGGER message_parts_fts_delete AFTER DELETE ON message_parts
WHEN old.kind = 'text' BEGIN
    INSERT INTO message_text_fts(message_text_fts, rowid, text) VALUES ('delete', old.id, old.text);
END;

CREATE TRIGGER message_parts_fts_update AFTER UPDATE ON message_parts BEGIN
    INSERT INTO message_text_fts(message_text_fts, rowid, text)
        SELECT 'delete', old.id, old.text WHERE old.kind = 'text';
    INSERT INTO message_text_fts(rowid, text)
        SELECT new.id, new.text WHERE new.kind = 'text';
END;

CREATE TABLE llm_messages (
    session_id        TEXT    NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    position          INTEGER NOT NULL,
    message           TEXT    NOT NULL,
    source_message_id TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (session_id, position)
) WITHOUT ROWID;

CREATE TABLE session_state (
    session_id TEXT    NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    key        TEXT    NOT NULL,
    value      TEXT    NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (session_id, key)
) WITHOUT ROWID;

CREATE TABLE confirmations (
    id           TEXT PRIMARY KEY,
    session_id   TEXT    NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    message_id   TEXT    NOT NULL DEFAULT '',
    tool_call_id TEXT    NOT NULL DEFAULT '',
    kind         TEXT    NOT NULL,
    payload      TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'cancelled')),
    response     TEXT,
    created_at   INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL
);
CREATE INDEX confirmations_by_session ON confirmations(session_id, status, created_at);
