-- What GoVibe learned about a model endpoint, per base URL and model: the
-- tool-call protocol it accepts, so a fallback found once is not
-- rediscovered (with a failed request and a notice) on every turn.
CREATE TABLE endpoints (
    base_url     TEXT    NOT NULL,
    model        TEXT    NOT NULL,
    tool_calling TEXT    NOT NULL,
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (base_url, model)
) WITHOUT ROWID;
