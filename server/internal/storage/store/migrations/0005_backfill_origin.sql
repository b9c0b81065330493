-- Sessions stored before 0004 have origin '' on every user message, so a
-- reopened plan showed the scheduler's prompts as the person's words. The
-- engine wrote those prompts in fixed English forms (scheduler/prompts.go,
-- unchanged since plans exist), recognisable by their first text part:
--   "[executor:N] You are the executor for todo item …"   plan-step
--   "[evaluator:N] You are the evaluator for todo item …" plan-step
--   "[executor:N] The run was interrupted. Continue as …"  plan-resume
--   "[scheduler] Every todo item has been handled. …"      plan-final
-- and a sub-agent's task is the first user message of its child session.
-- A person's message never carries an executor/evaluator tag; one that
-- starts like the closing prompt would have to quote its first line whole.
-- A button's "continue" is indistinguishable from a typed one and stays ''
-- (shown as the person's, as before).
UPDATE messages SET origin = CASE
        WHEN substr(p.text, 1, length(messages.sub_agent_tag) + 36) = '[' || messages.sub_agent_tag || '] The run was interrupted. Continue'
            THEN 'plan-resume'
        ELSE 'plan-step'
    END
FROM message_parts AS p
WHERE p.message_id = messages.id AND p.idx = 0 AND p.kind = 'text'
    AND messages.role = 'user' AND messages.origin = ''
    AND (messages.sub_agent_tag GLOB 'executor:[0-9]*' OR messages.sub_agent_tag GLOB 'evaluator:[0-9]*')
    AND (substr(p.text, 1, length(messages.sub_agent_tag) + 19) = '[' || messages.sub_agent_tag || '] You are the exec'
        OR substr(p.text, 1, length(messages.sub_agent_tag) + 19) = '[' || messages.sub_agent_tag || '] You are the eval'
        OR substr(p.text, 1, length(messages.sub_agent_tag) + 36) = '[' || messages.sub_agent_tag || '] The run was interrupted. Continue');

UPDATE messages SET origin = 'plan-final'
FROM message_parts AS p
WHERE p.message_id = messages.id AND p.idx = 0 AND p.kind = 'text'
    AND messages.role = 'user' AND messages.origin = ''
    AND messages.sub_agent_tag IN ('free', '')
    AND substr(p.text, 1, 55) = '[scheduler] Every todo item has been handled. Results:' || char(10);

UPDATE messages SET origin = 'subagent-task'
WHERE role = 'user' AND origin = ''
    AND id IN (
        SELECT (SELECT m.id FROM messages AS m WHERE m.session_id = s.id AND m.role = 'user' ORDER BY m.seq LIMIT 1)
        FROM sessions AS s WHERE s.kind = 'subagent' AND s.parent_id IS NOT NULL);
