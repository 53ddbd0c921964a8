// Generated from the server's OpenAPI document by scripts/openapi-types.ts: do not edit.
export interface paths {
    "/v1/t/{tenant}/routines/{plugin}/{name}/fire": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A signed webhook: fires an event: webhook routine with the body as its job's input
         * @description No API key: the request is signed with the routine's secret (oz0 routine secret). X-Oz0-Signature is sha256=<hex of HMAC-SHA256(secret, "<X-Oz0-Timestamp>.<body>")> over the raw body; a timestamp more than 300 s from the server's clock, a bad signature, a replay, or a routine that does not exist or takes no webhooks are all refused with UNAUTHENTICATED (data.reason says which).
         */
        post: operations["routineWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/routines/{name}/fire": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A signed webhook: fires an event: webhook routine with the body as its job's input
         * @description No API key: the request is signed with the routine's secret (oz0 routine secret). X-Oz0-Signature is sha256=<hex of HMAC-SHA256(secret, "<X-Oz0-Timestamp>.<body>")> over the raw body; a timestamp more than 300 s from the server's clock, a bad signature, a replay, or a routine that does not exist or takes no webhooks are all refused with UNAUTHENTICATED (data.reason says which).
         */
        post: operations["tenantRoutineWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/channels/{plugin}/{channel}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A channel's inbound event: verified by the channel, stored, and answered through it later
         * @description No API key: the channel verifies the request itself (the webhook channel: X-Oz0-Signature sha256=<hex HMAC-SHA256(secret, "<X-Oz0-Timestamp>.<body>")>; Slack: X-Slack-Signature v0=<hex HMAC-SHA256(signing secret, "v0:<X-Slack-Request-Timestamp>:<body>")>), with the timestamp within 300 s. A request not verified, or to a tenant, plugin or channel that does not exist or is not configured, is refused with UNAUTHENTICATED alike. A handshake (Slack's url_verification) is answered with its reply; any other event with what became of it. See docs/channels.md.
         */
        post: operations["channelInbound"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in to the console: a session cookie and its CSRF token */
        post: operations["signIn"];
        /** Sign out: the session ends */
        delete: operations["signOut"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who the caller is: actor, role and agents in scope */
        get: operations["me"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the server is up and ready */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Search the tenant's jobs, newest first */
        get: operations["searchJobs"];
        put?: never;
        /**
         * Start a job of an agent or flow
         * @description The agent or flow is named by address and checked against its owner; its input is checked against its input schema before the job exists (422 INVALID_INPUT, each problem at its place in data.issues). The job is queued for a worker.
         */
        post: operations["startJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a job */
        get: operations["getJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/jobs/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a job
         * @description A queued or waiting job ends at once; a running one at its next step.
         */
        post: operations["cancelJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/jobs/{id}/answer": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Answer the question a job asked (oz.ask_user) */
        post: operations["answerJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/jobs/{id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Queue a dead-lettered job again
         * @description It goes on from its history, its attempts counted from none; a job that is not dead is refused.
         */
        post: operations["retryJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/jobs/{id}/card": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A succeeded job's answer as its card
         * @description The card the answer is drawn as (a table, key-values, a diff, or text); a job that has not succeeded is refused with JOB_STATE_CONFLICT.
         */
        get: operations["jobCard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/jobs/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take a job up from its history on the server's worker
         * @description A queued job, or one whose worker died (once its lease runs out), is left to this server's worker, which takes it up from its history; follow it by its events. A job that ended or waits for someone is refused with JOB_STATE_CONFLICT.
         */
        post: operations["resumeJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/workers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How many workers are live on the server's store */
        get: operations["liveWorkers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/jobs/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A job's events
         * @description As JSON, the events so far. With Accept: text/event-stream, server-sent events that follow the job until it ends: each event's id is its seq, so a client that reconnects with Last-Event-ID gets exactly the events after it; a last event named `end` carries the job. While a model step runs, its text streams as `event: delta` frames with `data: {"step": <the model_call's step>, "text": "<chunk>"}` and no id: they are not stored, come before their step's model_call event (whose text is the whole of them) and never after it; a stream that starts or resumes mid-step gets the rest of that step's text.
         */
        get: operations["jobEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's approvals (pending by default) */
        get: operations["listApprovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/approvals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One approval */
        get: operations["getApproval"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/approvals/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a held call */
        post: operations["approve"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/approvals/{id}/deny": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deny a held call, with a reason */
        post: operations["deny"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/policy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's tool policy rules */
        get: operations["listPolicy"];
        /** Set the action of a tool pattern */
        put: operations["setPolicy"];
        post?: never;
        /** Remove the rule of a tool pattern */
        delete: operations["removePolicy"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/policy/calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Which recorded calls a pattern covers, and what a rule on it would decide
         * @description Looks through the tool calls of the caller's newest jobs (200 jobs, their newest 2,000 calls) and answers the newest 50 the pattern covers, each with the rule that decides it now and the one that would with `action` set on the pattern. The pattern is checked as setting it is; nothing is stored.
         */
        get: operations["policyCalls"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/kill-switches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The kill switches set */
        get: operations["listKillSwitches"];
        put?: never;
        /** Stop an agent or tool: its running jobs end and no new call starts */
        post: operations["kill"];
        /** Lift a kill switch */
        delete: operations["revive"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/inventory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the tenant's agents and tools are for */
        get: operations["listInventory"];
        /** Say what an agent or tool is for */
        put: operations["setInventory"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every part of the tenant by address */
        get: operations["listParts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/catalog/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One part by address or bare name */
        get: operations["lookupPart"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/agents/{plugin}/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An agent: its runtime, model, tools, skills and the schemas of its input and answer */
        get: operations["getAgent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/flows/{plugin}/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A flow: where its steps are written and the schemas of its input and answer */
        get: operations["getFlow"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/plugins": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's plugins */
        get: operations["listPlugins"];
        /**
         * Update an installed plugin by uploading its new bundle archive
         * @description The archive's manifest names the plugin it updates.
         */
        put: operations["updatePlugin"];
        /** Install a plugin by uploading its bundle archive */
        post: operations["installPlugin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/plugins/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A plugin's parts, uses, bundle digest and history */
        get: operations["inspectPlugin"];
        put?: never;
        post?: never;
        /** Remove a plugin */
        delete: operations["removePlugin"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/plugin-status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The live status of every plugin of the tenant */
        get: operations["listPluginStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/plugins/{name}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A plugin's live status: its admin specs' status() and the state of its runtimes */
        get: operations["getPluginStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/plugins/{name}/grant": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Grant a plugin what its uses: asks of other plugins
         * @description Install and update by an admin grant it at once; this grants a plugin that came with the defaults, or whose grant was revoked.
         */
        post: operations["grantPlugin"];
        /**
         * Take back a plugin's grant
         * @description Its agents and flows reach no other plugin's part from their next call on, running jobs included.
         */
        delete: operations["revokePluginGrant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/models/aliases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's model aliases */
        get: operations["listModelAliases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/models/aliases/{alias}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Map an alias to a provider's model */
        put: operations["setModelAlias"];
        post?: never;
        /** Remove a model alias */
        delete: operations["removeModelAlias"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/models/prices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's model prices */
        get: operations["listModelPrices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/models/prices/{target}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a model's price */
        put: operations["setModelPrice"];
        post?: never;
        /** Remove a model's price */
        delete: operations["removeModelPrice"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's model providers (never their keys) */
        get: operations["listProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/providers/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Set a provider's base URL, key, timeout and retries
         * @description A key sent here is stored encrypted and never shown again; the answer says only where it comes from.
         */
        put: operations["setProvider"];
        post?: never;
        /** Remove a provider's settings and stored key */
        delete: operations["removeProvider"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/plugins/{plugin}/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A plugin's config, its secrets masked */
        get: operations["getPluginConfig"];
        /** Set a plugin's config */
        put: operations["setPluginConfig"];
        post?: never;
        /** Forget a plugin's config: its defaults apply */
        delete: operations["unsetPluginConfig"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's members */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/members/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Make a user a member, or change a member's role and agents */
        put: operations["setMember"];
        post?: never;
        /** End a user's membership of the tenant */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's API keys, live and past (never their secrets) */
        get: operations["listKeys"];
        put?: never;
        /** Make an API key; the answer holds it, once */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/keys/{id}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke an API key: its next request is refused */
        post: operations["revokeKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's audit log, newest first */
        get: operations["listAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/records": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The latest version of each record, newest first */
        get: operations["listRecords"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/records/{plugin}/{kind}/{key}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One record: its latest version, or the version asked for */
        get: operations["getRecord"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/records/{plugin}/{kind}/{key}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every version of one record, oldest first */
        get: operations["recordHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/record-retention": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** How long the tenant keeps each kind of record */
        get: operations["listRecordRetention"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/record-retention/{plugin}/{kind}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Keep a kind's records this many days (null: for ever) */
        put: operations["setRecordRetention"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/records/sweep": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Remove what is past its retention now */
        post: operations["sweepRecords"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/record-holds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The legal holds in force (all=true: released ones too) */
        get: operations["listRecordHolds"];
        put?: never;
        /** Place a legal hold on a plugin's records, a subject's, or both */
        post: operations["placeRecordHold"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/record-holds/{id}/release": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Release a legal hold */
        post: operations["releaseRecordHold"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/record-erasures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Erase every record about a subject, and what job histories hold of them */
        post: operations["eraseRecords"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/routines": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's routines whose agent the caller may see */
        get: operations["listRoutines"];
        put?: never;
        /** Add a routine of the tenant's own */
        post: operations["addRoutine"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/routines/{plugin}/{name}/fires": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A routine's fires, newest first */
        get: operations["routineHistory"];
        put?: never;
        /**
         * Fire a routine now; its job runs as the routine's identity
         * @description A routine whose agent is outside the caller's scope is answered as one that does not exist.
         */
        post: operations["fireRoutine"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/routines/{name}/fires": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A routine's fires, newest first */
        get: operations["tenantRoutineHistory"];
        put?: never;
        /**
         * Fire a routine now; its job runs as the routine's identity
         * @description A routine whose agent is outside the caller's scope is answered as one that does not exist.
         */
        post: operations["fireTenantRoutine"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/routines/{plugin}/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a routine of the tenant's own (a plugin's goes with its plugin) */
        delete: operations["removePluginRoutine"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/routines/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a routine of the tenant's own (a plugin's goes with its plugin) */
        delete: operations["removeRoutine"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/routines/{plugin}/{name}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a webhook routine's signing secret anew; the answer holds it, once
         * @description The previous secret stops working. Only its hash is kept; no other answer or audit entry holds it.
         */
        post: operations["pluginRoutineSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/routines/{name}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make a webhook routine's signing secret anew; the answer holds it, once
         * @description The previous secret stops working. Only its hash is kept; no other answer or audit entry holds it.
         */
        post: operations["routineSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/routines/{plugin}/{name}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop a routine firing until resumed */
        post: operations["pauseRoutine"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/routines/{name}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop a routine firing until resumed */
        post: operations["pauseTenantRoutine"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/routines/{plugin}/{name}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Let a paused routine fire again */
        post: operations["resumeRoutine"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/routines/{name}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Let a paused routine fire again */
        post: operations["resumeTenantRoutine"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/chats/agent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check that an address names an agent the caller may chat with
         * @description What a client asks before the first message: a flow, a tool or a missing agent is refused as NOT_FOUND saying what it is.
         */
        get: operations["chatAgent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/chats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open a chat with an agent: its first message starts the chat's job
         * @description Answers once the agent has answered the message; the job then waits for the next one. With Accept: text/event-stream, once the model starts answering: server-sent events, `event: delta` frames with `data: {"text": "<chunk>"}` as the model writes, then one `event: turn` with the turn (or `event: error` with the error shape). A turn refused or ended before any text comes answers as JSON either way.
         */
        post: operations["openChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/chats/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send the next message of a chat
         * @description With Accept: text/event-stream, once the model starts answering: server-sent events, `event: delta` frames with `data: {"text": "<chunk>"}` as the model writes, then one `event: turn` with the turn (or `event: error` with the error shape). A turn refused or ended before any text comes answers as JSON either way.
         */
        post: operations["sayInChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/chats/{id}/end": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End a chat: its job succeeds with its last answer */
        post: operations["endChat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/a2a/{plugin}/{agent}/.well-known/agent-card.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An agent's A2A agent card
         * @description The agent as an A2A agent (protocol 1.0): its address as name, one skill, the JSON-RPC interface at its base URL (/v1/t/{tenant}/a2a/{plugin}/{agent}) and the bearer scheme of an oz0 API key. An agent outside the key's scope answers as one that does not exist.
         */
        get: operations["a2aAgentCard"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/a2a/{plugin}/{agent}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The agent's A2A JSON-RPC endpoint: a task is a job of the agent
         * @description JSON-RPC 2.0 requests of A2A: SendMessage starts a job (or answers the question its task asks), SendStreamingMessage and SubscribeToTask follow it as server-sent events, GetTask reads it, CancelTask cancels it. Errors of a method come back as JSON-RPC errors; an agent outside the key's scope answers 404 as one that does not exist.
         */
        post: operations["a2aJsonRpc"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/nodes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The nodes that serve the tenant, live first, then those stopped or gone within a day */
        get: operations["listNodes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/pools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's plugins mapped to shared pools */
        get: operations["listPools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/pools/{plugin}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Run an installed plugin's next jobs on a shared pool with a node selector */
        put: operations["setPool"];
        post?: never;
        /** Take a plugin back to its own pool */
        delete: operations["removePool"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's channels: configured, notifications, and their outbox counts */
        get: operations["listChannels"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/channels/{plugin}/{channel}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a message out through a channel, from its outbox, to try its delivery */
        post: operations["sendChannelMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/tools/calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Call a function by its address */
        post: operations["callTool"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/tenants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The installation's tenants
         * @description Only an admin of tenant default with every agent (the installation's admins) may.
         */
        get: operations["listTenants"];
        put?: never;
        /**
         * Create a tenant; it gets the default plugins (std)
         * @description Only an admin of tenant default with every agent (the installation's admins) may.
         */
        post: operations["createTenant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The installation's users and the tenants each is a member of
         * @description Only an admin of tenant default with every agent (the installation's admins) may.
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * Add a user who signs in with a password
         * @description Only an admin of tenant default with every agent (the installation's admins) may. The password is in the body only; the answer never holds it.
         */
        post: operations["addUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/users/{user}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a user and every membership the user has
         * @description Only an admin of tenant default with every agent (the installation's admins) may.
         */
        delete: operations["removeUser"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/skill-proposals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's skill proposals, newest first */
        get: operations["listSkillProposals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/skill-proposals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One proposal, with the patch approving it would send */
        get: operations["getSkillProposal"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/skill-proposals/{id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Approve a proposal: its agent's apply function opens the pull request */
        post: operations["approveSkillProposal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/skill-proposals/{id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Reject a proposal; nothing is sent anywhere */
        post: operations["rejectSkillProposal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/mcp/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The tenant's MCP-backed tools: each server, the functions it lists now, its secrets' names */
        get: operations["mcpStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/mcp/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Which secrets of MCP servers are set, by name */
        get: operations["listMcpSecrets"];
        /** Set a secret of a tool's MCP server; its server gets it from its next start */
        put: operations["setMcpSecret"];
        post?: never;
        /** Remove one secret of a tool's MCP server, or all of them */
        delete: operations["removeMcpSecret"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/mcp/imports/{plugin}/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Keep the secrets an mcpServers import found, for the plugin it writes
         * @description oz0 mcp import reads the file and writes the plugin folder on the client; the secrets stay here.
         */
        post: operations["keepMcpImportSecrets"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/mcp": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Opens the session's SSE stream for server messages; resumes with Last-Event-ID
         * @description MCP Streamable HTTP (protocol 2025-06-18): the served functions as tools, jobs' outputs and skills as resources, agents as prompts. Every call is a job on oz0's dispatch path; a call an ask rule holds waits for a person's decision.
         */
        get: operations["mcpGet"];
        put?: never;
        /**
         * Sends MCP messages (initialize starts a session); answers JSON or an SSE stream
         * @description MCP Streamable HTTP (protocol 2025-06-18): the served functions as tools, jobs' outputs and skills as resources, agents as prompts. Every call is a job on oz0's dispatch path; a call an ask rule holds waits for a person's decision.
         */
        post: operations["mcpPost"];
        /**
         * Ends the MCP session
         * @description MCP Streamable HTTP (protocol 2025-06-18): the served functions as tools, jobs' outputs and skills as resources, agents as prompts. Every call is a job on oz0's dispatch path; a call an ask rule holds waits for a person's decision.
         */
        delete: operations["mcpDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/remote-secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The names of the tenant's remote-agent secrets (never their values) */
        get: operations["listRemoteSecrets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/remote-secrets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /** Set a remote agent's secret */
        put: operations["setRemoteSecret"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/t/{tenant}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Cost and tokens of the tenant's model calls per agent, model or day
         * @description Read from the totals kept per agent, model and hour as each model call is recorded. A caller limited to some agents is told only of its agents' calls.
         */
        get: operations["usage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        RoutineFire: {
            id: string;
            routine: string;
            /** @description What fired it: schedule, catch_up, job_ended, webhook, channel or manual. */
            cause: string;
            /** @description started, queued, skipped, missed or failed. */
            outcome: string;
            tick: string | null;
            /** @description The job it started, if any. */
            job: string | null;
            detail: string | null;
            at: string;
        };
        Error: {
            error: {
                /** @enum {string} */
                code: "INVALID_ADDRESS" | "INVALID_NAME" | "MODEL_NAME_TOO_LONG" | "INVALID_MANIFEST" | "UNSAFE_YAML" | "INVALID_PLUGIN" | "INVALID_BUNDLE" | "DUPLICATE_REGISTRATION" | "UNKNOWN_HOOK" | "INVALID_INPUT" | "POLICY_VIOLATION" | "INTERNAL" | "TOOL_FAILED" | "LIMIT_EXCEEDED" | "NETWORK_ERROR" | "NOT_FOUND" | "UNAUTHENTICATED" | "FORBIDDEN" | "NOT_SUPPORTED" | "CONFLICT" | "REQUEST_TOO_LARGE" | "TOO_MANY_REQUESTS" | "ALREADY_INSTALLED" | "ALREADY_EXISTS" | "ROUTINE_PAUSED" | "NAME_TAKEN" | "NAME_CLASH" | "TOOL_CLASH" | "OWNER_MISMATCH" | "USES_UNSATISFIED" | "NOT_GRANTED" | "PART_IN_USE" | "BREAKING_CHANGE" | "UNPLANNED_MODEL_CALL" | "MODEL_NOT_CONFIGURED" | "INVALID_TELEMETRY" | "JOB_STATE_CONFLICT" | "LEASE_LOST" | "STEP_FAILED" | "PROPOSAL_STATE_CONFLICT" | "MODEL_CALL_FAILED" | "TOO_MANY_TOOLS" | "KILLED" | "APPROVAL_REQUIRED" | "APPROVAL_DENIED" | "APPROVAL_STATE_CONFLICT" | "HOOK_FAILED" | "MCP_AUTH_REQUIRED" | "MCP_SERVER_ERROR" | "MCP_TOOL_ERROR" | "REMOTE_AGENT_ERROR" | "PATH_OUTSIDE_ROOTS" | "HARNESS_FAILED";
                message: string;
                data?: {
                    [key: string]: unknown;
                };
                /** @enum {string} */
                side: "user" | "system";
                status: number;
                retryable: boolean;
                /** @description Only in development (OZ0_DEV=1). */
                stack?: string;
            };
        };
        Session: components["schemas"]["Me"] & {
            /** @description Epoch milliseconds. */
            expiresAt: number;
        };
        Me: {
            tenant: string;
            /** @example user:alice */
            actor: string;
            /** @enum {string} */
            role: "viewer" | "runner" | "approver" | "operator" | "admin";
            /** @description The agents in scope: addresses, `tag:<tag>`, or `*`. */
            agents: string[];
            /** @description For a console session, the token to send as X-CSRF-Token; null for a key. */
            csrf: string | null;
        };
        /** @description A member's user name and password in a tenant, or an API key. */
        SignIn: {
            tenant: string;
            user: string;
            password: string;
        } | {
            key: string;
        };
        Health: {
            /** @enum {string} */
            status: "ok";
        };
        Job: {
            id: string;
            tenant: string;
            /** @description The agent or flow by address, <plugin>/<agent>. */
            agent: string;
            /** @enum {string} */
            status: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled" | "dead";
            /** @enum {string} */
            mode: "run" | "chat";
            input?: unknown;
            /** @description The answer once the job succeeded; null before. */
            output?: unknown;
            failure: components["schemas"]["JobFailure"];
            parent: string | null;
            depth: number;
            tags: string[];
            attempts: number;
            /** @description The task queue it runs on: pool.<plugin>[.<labels>]. */
            queue: string;
            /** @description Why no live node takes it while it waits to run; null otherwise. */
            unserved: string | null;
            waitingFor: components["schemas"]["WaitingFor"];
            cancelRequestedBy: string | null;
            /** @description Epoch milliseconds, by the database's clock. */
            createdAt: number;
            updatedAt: number;
        };
        JobFailure: {
            kind: string;
            message: string;
            code?: string;
            retryable?: boolean;
            partial?: boolean;
            person?: boolean;
        } | null;
        WaitingFor: {
            /** @enum {string} */
            kind: "answer";
            callId: string;
            question: string;
        } | {
            /** @enum {string} */
            kind: "chat";
        } | {
            /** @enum {string} */
            kind: "child";
            callId: string;
            job: string;
        } | {
            /** @enum {string} */
            kind: "approval";
            callId: string;
            approval: string;
        } | null;
        StartJob: {
            /** @example support-triage/triage */
            agent: string;
            /** @description Text, or an object for an agent with an input_schema. */
            input?: unknown;
            /** @description A second StartJob of the same agent with this key returns the first job. */
            idempotency_key?: string;
            /** @description true (the default): an input that does not match the agent's input_schema is refused (422) before the job exists. false: the job starts and fails with invalid_input before the agent starts, as oz0 run's does. */
            check_input?: boolean;
        };
        JobList: {
            jobs: components["schemas"]["Job"][];
        };
        Answer: {
            answer: string;
        };
        /** @description A job's answer as data to draw: text, key-values, a table or a diff. */
        Card: {
            /** @enum {string} */
            kind: "text" | "key_values" | "table" | "diff";
        } & {
            [key: string]: unknown;
        };
        Workers: {
            /** @description Workers live on the store now. */
            live: number;
        };
        JobEvents: {
            job: components["schemas"]["Job"];
            events: components["schemas"]["JobEvent"][];
        };
        JobEvent: {
            /** @description The event's place in the job's history, from 1; the SSE event id. */
            seq: number;
            at: number;
            kind: string;
            data?: unknown;
        };
        /** @description A held call: id, job, callId, tool, status, decidedBy, reason, … */
        Approval: {
            [key: string]: unknown;
        };
        /** @description The decision recorded, and what it did to the job. */
        DecisionReport: {
            [key: string]: unknown;
        };
        DecisionBody: {
            reason?: string;
        };
        /** @description A tool policy rule: pattern and action. */
        PolicyRule: {
            [key: string]: unknown;
        };
        /** @description The rule set, and the one it replaced if any. */
        PolicyChange: {
            [key: string]: unknown;
        };
        PolicyBody: {
            /** @enum {string} */
            action: "allow" | "ask" | "deny";
            pattern: string;
        };
        /** @description The recorded calls a pattern covers, newest first, with what a rule on it would decide. */
        PatternCalls: {
            /** @description The pattern as a rule would store it. */
            pattern: string;
            /** @enum {string} */
            action: "allow" | "ask" | "deny";
            looked: {
                /** @description How many of the caller's newest jobs were read. */
                jobs: number;
                /** @description How many of their newest calls were read. */
                calls: number;
            };
            calls: {
                job: string;
                /** @description The call's ID in its job's history. */
                callId: string;
                agent: string;
                /** @description The called function's address. */
                function: string;
                /** @description Its arguments as JSON, cut short. */
                args: string;
                at: number;
                /** @description Held for a person's approval: asked for, not run yet. */
                held: boolean;
                /** @description The rule that decides such a call now; null: the agent's grant. */
                now: {
                    /** @enum {string} */
                    action: "allow" | "ask" | "deny";
                    /** @description The deciding rule's pattern. */
                    rule: string;
                } | null;
                /** @description The rule that would decide it with the pattern's rule set. */
                withRule: {
                    /** @enum {string} */
                    action: "allow" | "ask" | "deny";
                    /** @description The deciding rule's pattern. */
                    rule: string;
                } | null;
            }[];
        };
        /** @description A kill switch: kind, address, who set it and when. */
        KillSwitch: {
            [key: string]: unknown;
        };
        /** @description The switch set, and the jobs it stopped. */
        KillReport: {
            [key: string]: unknown;
        };
        KillSwitchBody: {
            /** @enum {string} */
            kind: "agent" | "tool";
            address: string;
        };
        /** @description What an agent or tool is for, and who answers for it. */
        InventoryEntry: {
            [key: string]: unknown;
        };
        InventoryBody: {
            /** @enum {string} */
            kind: "agent" | "tool";
            address: string;
            purpose: string;
            owner?: string;
        };
        /** @description A part by address, with its tags and what the inventory says of it. */
        Part: {
            kind: string;
            address: string;
            plugin: string;
            name: string;
        } & {
            [key: string]: unknown;
        };
        /** @description An agent as its console page shows it. */
        Agent: {
            address: string;
            plugin: string;
            name: string;
            description: string | null;
            /** @description The agent runtime; `oz0` is oz0's own loop. */
            runtime: string;
            model: {
                use: string;
                script?: string;
            } | null;
            /** @description The functions it may call, by address. */
            tools: string[];
            skills: string[];
            tags: string[];
            inventory?: {
                purpose: string;
                owner: string | null;
            };
            /** @description Its input_schema; null when it takes text. */
            inputSchema: {
                [key: string]: unknown;
            } | null;
            /** @description Its output_schema; null for a text answer. */
            outputSchema: {
                [key: string]: unknown;
            } | null;
            failures: {
                kind: string;
                description: string;
            }[];
            limits: {
                [key: string]: number;
            };
        };
        /** @description A flow as its console page shows it. */
        Flow: {
            address: string;
            plugin: string;
            name: string;
            description: string | null;
            /**
             * @description YAML steps in plugin.yaml, or code (host.addFlow).
             * @enum {string}
             */
            source: "yaml" | "code";
            tags: string[];
            inventory?: {
                purpose: string;
                owner: string | null;
            };
            /** @description Its input schema; null when it takes text. */
            inputSchema: {
                [key: string]: unknown;
            } | null;
            /** @description Its output schema; null when it declares none. */
            outputSchema: {
                [key: string]: unknown;
            } | null;
        };
        /** @description An installed plugin: name, version, digest, part counts. */
        Plugin: {
            name: string;
        } & {
            [key: string]: unknown;
        };
        /** @description A plugin's parts, uses, bundle digest and history. */
        PluginDetail: {
            name: string;
        } & {
            [key: string]: unknown;
        };
        /** @description A plugin's live status: its admin specs' status() and its runtimes. */
        PluginStatus: {
            plugin: string;
            admin: components["schemas"]["PluginAdminStatus"][];
            runtimes: components["schemas"]["PluginRuntimeStatus"][];
        };
        /** @description What an admin spec's status() said now. */
        PluginAdminStatus: {
            /** @description The admin spec's name (status for a status-only one). */
            name: string;
            /** @enum {string} */
            state: "ok" | "degraded" | "error" | "off";
            message?: string;
            details?: {
                [key: string]: unknown;
            };
        };
        /** @description A plugin runtime as the node running it last wrote it. */
        PluginRuntimeStatus: {
            plugin: string;
            runtime: string;
            /** @enum {string} */
            state: "starting" | "running" | "restarting" | "stopped" | "failed";
            restarts: number;
            lastError: string | null;
            /** @description When it entered its state, epoch ms; null if it never ran. */
            since: number | null;
            /** @description The node running it; null when none does. */
            node: string | null;
        };
        /** @description What the install, update or remove did. */
        PluginChange: {
            [key: string]: unknown;
        };
        /** @description What was granted (the plugin version whose uses: it is, and what it lists by address), or taken back; version is null for a revoke of a plugin that had no grant. */
        PluginGrant: {
            /** @enum {string} */
            action: "grant" | "revoke";
            tenant: string;
            plugin: string;
            version: string | null;
            uses: string[];
            by: string;
        };
        ModelAlias: {
            alias: string;
            /** @description `provider:model`, or `test`. */
            target: string;
            fallback: boolean;
            options: {
                [key: string]: unknown;
            };
        };
        SetModelAlias: {
            /** @example openai:gpt-4o */
            target: string;
            options?: {
                [key: string]: unknown;
            };
        };
        /** @description US dollars per million tokens, by kind. */
        ModelPrice: {
            target: string;
        } & {
            [key: string]: unknown;
        };
        /** @description US dollars per million tokens. */
        SetModelPrice: {
            input: number;
            output: number;
            cached?: number;
        };
        Provider: {
            name: string;
            type: string;
            displayName: string;
            source: string;
            baseUrl: string | null;
            baseUrlFrom: string | null;
            key: components["schemas"]["ProviderKey"];
            timeoutSeconds: number | null;
            retries: number | null;
            stream: boolean | null;
            structuredOutput?: string | null;
        };
        /** @description Where the key comes from; never the key. */
        ProviderKey: {
            /** @enum {string} */
            state: "stored";
            hint: string | null;
        } | {
            /** @enum {string} */
            state: "env";
            env: string;
            set: boolean;
        } | {
            /** @enum {string} */
            state: "none";
            required: boolean;
        };
        SetProvider: {
            type?: string;
            base_url?: string;
            /** @description Read the key from this variable. */
            api_key_env?: string;
            /** @description Store this key, encrypted; never shown again. */
            api_key?: string;
            timeout_seconds?: number;
            retries?: number;
            stream?: boolean;
            /** @enum {string} */
            structured_output?: "json_schema" | "prompt";
        };
        PluginConfig: {
            plugin: string;
            /** @description Through the plugin's redact(): secrets masked. */
            config: {
                [key: string]: unknown;
            };
            /** @description Whether an operator set anything over the defaults. */
            set: boolean;
            /** @description The config's JSON Schema from the plugin's admin spec, which the console's form is drawn from. */
            schema: {
                [key: string]: unknown;
            } | null;
        };
        /** @description The config over the plugin's defaults, checked by its admin spec. A value sent exactly as GET masked it keeps the secret it stands for. */
        SetPluginConfig: {
            config: {
                [key: string]: unknown;
            };
        };
        Member: {
            tenant: string;
            user: string;
            /** @enum {string} */
            role: "viewer" | "runner" | "approver" | "operator" | "admin";
            agents: string[];
            createdAt: number;
            updatedAt: number;
            updatedBy: string;
        };
        MemberChange: {
            member: components["schemas"]["Member"];
            /** @description The role and agents before, if the user was a member. */
            previous: {
                /** @enum {string} */
                role: "viewer" | "runner" | "approver" | "operator" | "admin";
                agents: string[];
            } | null;
        };
        SetMember: {
            /** @enum {string} */
            role: "viewer" | "runner" | "approver" | "operator" | "admin";
            /**
             * @description Addresses (<plugin>/<agent>), tag:<tag>, or * (the default).
             * @example [
             *       "*"
             *     ]
             */
            agents?: string[];
        };
        /** @description An API key as listed: never its secret. */
        ApiKey: {
            id: string;
            tenant: string;
            name: string;
            /** @enum {string} */
            role: "viewer" | "runner" | "approver" | "operator" | "admin";
            agents: string[];
            /** @enum {string} */
            status: "active" | "expired" | "revoked";
            createdAt: number;
            createdBy: string;
            expiresAt: number | null;
            revokedAt: number | null;
            revokedBy: string | null;
        };
        CreatedApiKey: {
            id: string;
            /** @description The key itself: shown in this answer only, never again. */
            key: string;
            view: components["schemas"]["ApiKey"];
        };
        CreateApiKey: {
            /** @example ci */
            name: string;
            /** @enum {string} */
            role: "viewer" | "runner" | "approver" | "operator" | "admin";
            /**
             * @description Addresses (<plugin>/<agent>), tag:<tag>, or * (the default).
             * @example [
             *       "*"
             *     ]
             */
            agents?: string[];
            /** @description Default: until revoked. */
            expires_in_seconds?: number;
        };
        AuditEntry: {
            seq: number;
            tenant: string | null;
            /** @description Epoch milliseconds. */
            at: number;
            actor: string;
            role: string | null;
            action: string;
            target: string;
            detail: {
                [key: string]: unknown;
            };
        };
        Record: {
            plugin: string;
            kind: string;
            key: string;
            version: number;
            subject?: string;
            value?: unknown;
            /** @description Epoch milliseconds. */
            createdAt: number;
        };
        RecordRetention: {
            plugin: string;
            kind: string;
            days: number;
            setBy: string;
            setAt: number;
        };
        /** @description null keeps the kind's records for ever. */
        RecordRetentionBody: {
            days: number | null;
        };
        RecordHold: {
            id: string;
            plugin?: string;
            kind?: string;
            key?: string;
            subject?: string;
            reason: string;
            placedBy: string;
            placedAt: number;
            releasedBy?: string;
            releasedAt?: number;
        };
        RecordHoldBody: {
            plugin?: string;
            kind?: string;
            key?: string;
            subject?: string;
            reason: string;
        };
        RecordErasure: {
            subject: string;
            records: number;
            versions: number;
            events: number;
            jobs: number;
        };
        RecordErasureBody: {
            subject: string;
        };
        Routine: {
            name: string;
            /** @enum {string} */
            source: "plugin" | "tenant";
            run: string;
            schedule: string | null;
            timezone: string | null;
            event: string | null;
            /** @enum {string} */
            missed: "skip" | "catch_up_last";
            /** @enum {string} */
            overlap: "skip" | "queue" | "allow";
            identity: {
                actor: string;
                role: string;
                agents: string[];
            };
            tools: string[] | null;
            limits?: {
                max_turns?: number;
                max_tokens?: number;
                wall_seconds?: number;
                max_cost_usd?: number;
            } | null;
            paused: boolean;
            next: string | null;
            secret: boolean | null;
            last: components["schemas"]["RoutineFire"] & (Record<string, never> | null);
        };
        FireRoutine: {
            /** @description The job's input instead of the routine's. */
            input?: unknown;
        };
        /** @description A routine of the plugin manifest's routines: form (name, run, schedule or event, timezone, missed, overlap, input, identity, tools, limits). */
        NewRoutine: {
            /** @example nightly */
            name: string;
            /** @example helpdesk/triage */
            run: string;
        } & {
            [key: string]: unknown;
        };
        RoutineSecret: {
            routine: string;
            secret: string;
        };
        ChatAgent: {
            plugin: string;
            name: string;
        };
        ChatTurn: {
            job: components["schemas"]["Job"];
            /** @description The model's last answer; null when it gave none. */
            answer?: unknown;
            /** @description The answer's card, when the job waits for the next message. */
            card?: unknown;
        };
        OpenChat: {
            /** @example helpdesk/triage */
            agent: string;
            /** @description The first message. */
            text: string;
        };
        ChatMessage: {
            text: string;
        };
        /** @description An A2A AgentCard (the A2A specification's JSON form). */
        A2aAgentCard: {
            [key: string]: unknown;
        };
        /** @description A JSON-RPC 2.0 response: result, or error. */
        A2aJsonRpcResponse: {
            [key: string]: unknown;
        };
        A2aJsonRpcRequest: {
            /** @enum {string} */
            jsonrpc: "2.0";
            id?: string | number | null;
            /** @example SendMessage */
            method: string;
            params?: unknown;
        };
        Node: {
            id: string;
            host: string;
            pid: number;
            /** @description The node's oz0 version. */
            version: string;
            /** @description The job format it understands. */
            format: number;
            labels: string[];
            /** @description The shared pool it serves; null: the plugins' own. */
            pool: string | null;
            /** @description The only tenant it serves; null: every tenant. */
            tenant: string | null;
            concurrency: number;
            /** @enum {string} */
            state: "live" | "stopped" | "gone";
            startedAt: number;
            /** @description Its heartbeat's expiry, or when it stopped. */
            until: number;
        };
        PoolMapping: {
            plugin: string;
            pool: string;
            labels: string[];
            queue: string;
            createdBy: string;
            createdAt: number;
        };
        SetPool: {
            /** @example shared-gpu */
            pool: string;
            labels?: string[];
        };
        Channel: {
            /**
             * @description <plugin>/<channel>
             * @example channels/slack
             */
            channel: string;
            plugin: string;
            name: string;
            enabled: boolean;
            supportsNotifications: boolean;
            configured: boolean;
            notificationsEnabled: boolean;
            outbox: {
                inbound: number;
                answering: number;
                delivering: number;
                delivered: number;
                failed: number;
            };
        };
        /** @description The call's result, or its error (ok false: the function ran and failed). */
        ToolCallReport: {
            address: string;
            modelName: string;
            ok: boolean;
            ms: number;
        } & {
            [key: string]: unknown;
        };
        ToolCall: {
            /** @example support-triage/tickets.get */
            address: string;
            /** @description The function's arguments, a JSON object. */
            args?: unknown;
        };
        Tenant: {
            name: string;
            /** @description Epoch milliseconds. */
            createdAt: number;
        };
        CreateTenant: {
            /** @example research */
            name: string;
            /** @description A user made the new tenant's admin of every agent at once. */
            admin?: string;
        };
        /** @description A user as listed: never a password or its hash. */
        User: {
            name: string;
            createdAt: number;
            createdBy: string;
            tenants: {
                tenant: string;
                /** @enum {string} */
                role: "viewer" | "runner" | "approver" | "operator" | "admin";
            }[];
        };
        AddUser: {
            /** @example alice@example.com */
            name: string;
            /** @description 12 to 1,024 characters; only its argon2id hash is kept. */
            password: string;
        };
        SkillProposal: {
            id: string;
            tenant: string;
            job: string;
            /** @description The proposing agent, by address. */
            agent: string;
            /** @description The plugin whose skills it changes. */
            into: string;
            skill: string;
            description: string;
            body: string;
            title: string;
            why: string | null;
            /** @enum {string} */
            status: "pending" | "approved" | "rejected";
            decidedBy: string | null;
            reason: string | null;
            /** @description What the apply function returned, once approved. */
            result?: unknown;
            apply: string;
            repository: string;
            createdAt: number;
            decidedAt: number | null;
        };
        ShownSkillProposal: components["schemas"]["SkillProposal"] & {
            /** @description The SKILL.md the patch changes. */
            path: string;
            /** @description The unified patch approving it would send. */
            patch: string;
        };
        ApprovedSkillProposal: {
            proposal: components["schemas"]["SkillProposal"];
            /** @description The apply function that opened the pull request. */
            address: string;
            result?: unknown;
        };
        ApproveSkillProposal: {
            /** @description Default main. */
            base?: string;
            draft?: boolean;
        };
        RejectSkillProposal: {
            reason?: string;
        };
        McpToolStatus: {
            address: string;
            plugin: string;
            tool: string;
            /** @enum {string} */
            transport: "stdio" | "http";
            /** @description Its command line or URL; never a secret. */
            server: string;
            functions: string[];
            leftOut: {
                name: string;
                reason: string;
            }[];
            error: string | null;
            secrets: {
                env: string[];
                headers: string[];
            };
        };
        /** @description Which secrets are set, by name; never their values. */
        McpSecretNames: {
            tool: string;
            env: string[];
            headers: string[];
        };
        SetMcpSecret: {
            /** @example github/issues */
            tool: string;
            /** @enum {string} */
            kind: "env" | "header" | "oauth";
            name: string;
            /** @description Kept encrypted; never shown again. */
            value: string;
        };
        KeepMcpSecrets: {
            secrets: {
                tool: string;
                /** @enum {string} */
                kind: "env" | "header";
                name: string;
                value: string;
                why: string;
            }[];
        };
        /** @description A JSON-RPC message (or batch) of the MCP protocol. */
        McpMessage: unknown;
        SetRemoteSecret: {
            /** @description Kept encrypted; never shown again. */
            value: string;
        };
        Usage: {
            /** @enum {string} */
            by: "agent" | "model" | "day";
            /** @description The start of the first hour counted, epoch milliseconds. */
            since: number;
            rows: components["schemas"]["UsageRow"][];
            total: components["schemas"]["UsageAmounts"];
        };
        UsageRow: {
            /** @description The agent's address, the model, or the UTC day (YYYY-MM-DD). */
            key: string;
            inputTokens: number;
            outputTokens: number;
            modelCalls: number;
            costUsd: number;
        };
        UsageAmounts: {
            inputTokens: number;
            outputTokens: number;
            modelCalls: number;
            costUsd: number;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    routineWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Seconds since the epoch. */
                "x-oz0-timestamp"?: string;
                /** @description sha256=<hex> */
                "x-oz0-signature"?: string;
            };
            path: {
                tenant: string;
                plugin: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "*/*": string;
            };
        };
        responses: {
            /** @description Verified and fired: the fire, and the job it started. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoutineFire"];
                };
            };
            /** @description Not verified (UNAUTHENTICATED, data.reason: signature, timestamp, stale or replay). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    tenantRoutineWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Seconds since the epoch. */
                "x-oz0-timestamp"?: string;
                /** @description sha256=<hex> */
                "x-oz0-signature"?: string;
            };
            path: {
                tenant: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "*/*": string;
            };
        };
        responses: {
            /** @description Verified and fired: the fire, and the job it started. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoutineFire"];
                };
            };
            /** @description Not verified (UNAUTHENTICATED, data.reason: signature, timestamp, stale or replay). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    channelInbound: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
                channel: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "*/*": string;
            };
        };
        responses: {
            /** @description Verified. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        outcome?: "accepted" | "duplicate" | "ignored" | "refused";
                        /** @description The stored message's ID, when accepted. */
                        message?: string;
                        /** @description Why a hook refused it. */
                        reason?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not verified (UNAUTHENTICATED, data.reason: unverified or signature). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    signIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SignIn"];
            };
        };
        responses: {
            /** @description Signed in; the session is in the oz0_session cookie. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    signOut: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out (or was not signed in). */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    me: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Me"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
        };
    };
    searchJobs: {
        parameters: {
            query?: {
                /** @description Only jobs of this agent or flow, by address. */
                agent?: string;
                status?: "queued" | "running" | "waiting" | "succeeded" | "failed" | "cancelled" | "dead";
                tag?: string;
                parent?: string;
                /** @description Only jobs started at or after this time, in epoch milliseconds. */
                since?: number;
                /** @description Only jobs started before this time, in epoch milliseconds; after `since` when both are given. */
                until?: number;
                limit?: number;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The jobs the caller may see. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobList"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StartJob"];
            };
        };
        responses: {
            /** @description The job, queued (or the earlier job of the same idempotency key). */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job after the cancel. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    answerJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Answer"];
            };
        };
        responses: {
            /** @description The job, queued to go on. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, queued. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    jobCard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The card. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Card"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resumeJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, left to the worker. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    liveWorkers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The live workers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workers"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    jobEvents: {
        parameters: {
            query?: {
                /** @description Only events whose seq is greater (as Last-Event-ID does for a stream). */
                after?: number;
                /** @description Only the newest this many of those events; a stream then gives every event written after them. A stream resumed with Last-Event-ID gives every event after it. */
                tail?: number;
            };
            header?: {
                /** @description Resume a stream after the event with this id (seq). */
                "last-event-id"?: string;
            };
            path: {
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job and its events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["JobEvents"];
                    "text/event-stream": string;
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApprovals: {
        parameters: {
            query?: {
                /** @description Default pending: the calls waiting for a person. */
                status?: "pending" | "approved" | "denied" | "withdrawn" | "all";
                job?: string;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The approvals the caller may see. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        approvals: components["schemas"]["Approval"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The approval. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Approval"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    approve: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DecisionBody"];
            };
        };
        responses: {
            /** @description The decision. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DecisionReport"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deny: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DecisionBody"];
            };
        };
        responses: {
            /** @description The decision. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DecisionReport"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rules. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        rules: components["schemas"]["PolicyRule"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setPolicy: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PolicyBody"];
            };
        };
        responses: {
            /** @description The rule set. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyChange"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removePolicy: {
        parameters: {
            query: {
                pattern: string;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The rule removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyRule"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    policyCalls: {
        parameters: {
            query: {
                pattern: string;
                /** @description The action of the rule to preview; default ask. */
                action?: "allow" | "ask" | "deny";
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The calls the pattern covers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PatternCalls"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listKillSwitches: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The switches. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        switches: components["schemas"]["KillSwitch"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    kill: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["KillSwitchBody"];
            };
        };
        responses: {
            /** @description The switch set. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KillReport"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revive: {
        parameters: {
            query: {
                kind: "agent" | "tool";
                address: string;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The switch lifted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KillSwitch"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInventory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entries. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: components["schemas"]["InventoryEntry"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setInventory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InventoryBody"];
            };
        };
        responses: {
            /** @description The entry. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryEntry"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listParts: {
        parameters: {
            query?: {
                tag?: string;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The parts the caller may see. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        parts: components["schemas"]["Part"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    lookupPart: {
        parameters: {
            query: {
                name: string;
                kind?: "agent" | "flow" | "tool" | "function" | "skill";
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The part, `bare` saying whether it was named without its plugin. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Part"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAgent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agent. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getFlow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The flow. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Flow"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPlugins: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plugins. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plugins: components["schemas"]["Plugin"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updatePlugin: {
        parameters: {
            query?: {
                /** @description Go past what the change would break for other plugins (needs reason). */
                force?: "true" | "false";
                reason?: string;
                /** @description Where the bundle came from as the client names it (the folder oz0 plugin install packed), shown as the plugin's folder; default upload. */
                source?: string;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/gzip": string;
            };
        };
        responses: {
            /** @description Updated. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PluginChange"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    installPlugin: {
        parameters: {
            query?: {
                /** @description Go past what the change would break for other plugins (needs reason). */
                force?: "true" | "false";
                reason?: string;
                /** @description Where the bundle came from as the client names it (the folder oz0 plugin install packed), shown as the plugin's folder; default upload. */
                source?: string;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/gzip": string;
            };
        };
        responses: {
            /** @description Installed. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PluginChange"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    inspectPlugin: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plugin. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PluginDetail"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removePlugin: {
        parameters: {
            query?: {
                /** @description Go past what the change would break for other plugins (needs reason). */
                force?: "true" | "false";
                reason?: string;
            };
            header?: never;
            path: {
                tenant: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PluginChange"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPluginStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Each plugin's status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        plugins: components["schemas"]["PluginStatus"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPluginStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plugin's status. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PluginStatus"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    grantPlugin: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Granted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PluginGrant"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokePluginGrant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PluginGrant"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listModelAliases: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The aliases. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        aliases: components["schemas"]["ModelAlias"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setModelAlias: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                alias: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetModelAlias"];
            };
        };
        responses: {
            /** @description The alias as it now is. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelAlias"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeModelAlias: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                alias: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        removed: string;
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listModelPrices: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The prices. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        prices: components["schemas"]["ModelPrice"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setModelPrice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                target: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetModelPrice"];
            };
        };
        responses: {
            /** @description The price as it now is. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ModelPrice"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeModelPrice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                target: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        removed: string;
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listProviders: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The providers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        providers: components["schemas"]["Provider"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetProvider"];
            };
        };
        responses: {
            /** @description The provider as it now is, without its key. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Provider"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeProvider: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        removed: string;
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPluginConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The config the plugin runs with, redacted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PluginConfig"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setPluginConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetPluginConfig"];
            };
        };
        responses: {
            /** @description The config as it now is, redacted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PluginConfig"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    unsetPluginConfig: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The config as it now is, redacted. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PluginConfig"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMembers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The members. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        members: components["schemas"]["Member"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetMember"];
            };
        };
        responses: {
            /** @description The membership, and what it was. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberChange"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The membership that ended. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Member"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        keys: components["schemas"]["ApiKey"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKey"];
            };
        };
        responses: {
            /** @description The key, shown this once. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKey"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key, revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAudit: {
        parameters: {
            query?: {
                /** @description Entries at or after this time, epoch milliseconds. */
                since?: number | null;
                actor?: string;
                /** @description One action (key.create), or every action on a thing (key). */
                action?: string;
                /** @description Default 100. */
                limit?: number;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entries that match. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        entries: components["schemas"]["AuditEntry"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRecords: {
        parameters: {
            query?: {
                plugin?: string;
                kind?: string;
                subject?: string;
                limit?: number;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The records that match. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        records: components["schemas"]["Record"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRecord: {
        parameters: {
            query?: {
                /** @description This version rather than the latest. */
                version?: number;
            };
            header?: never;
            path: {
                tenant: string;
                plugin: string;
                kind: string;
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Record"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    recordHistory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
                kind: string;
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The versions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        versions: components["schemas"]["Record"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRecordRetention: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The kinds with a retention. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        retention: components["schemas"]["RecordRetention"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setRecordRetention: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
                kind: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecordRetentionBody"];
            };
        };
        responses: {
            /** @description The kinds with a retention. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        retention: components["schemas"]["RecordRetention"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sweepRecords: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How many versions went. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        removed: number;
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRecordHolds: {
        parameters: {
            query?: {
                /** @description Released holds too. */
                all?: "true" | "false";
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The holds. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        holds: components["schemas"]["RecordHold"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    placeRecordHold: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecordHoldBody"];
            };
        };
        responses: {
            /** @description The hold placed. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecordHold"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    releaseRecordHold: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The hold released. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecordHold"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    eraseRecords: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RecordErasureBody"];
            };
        };
        responses: {
            /** @description What was erased. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecordErasure"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRoutines: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The routines. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        routines: components["schemas"]["Routine"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addRoutine: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewRoutine"];
            };
        };
        responses: {
            /** @description The routine. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Routine"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    routineHistory: {
        parameters: {
            query?: {
                /** @description Default 20. */
                limit?: number;
            };
            header?: never;
            path: {
                tenant: string;
                plugin: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The fires. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        fires: components["schemas"]["RoutineFire"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    fireRoutine: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["FireRoutine"];
            };
        };
        responses: {
            /** @description The fire, and the job it started. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoutineFire"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    tenantRoutineHistory: {
        parameters: {
            query?: {
                /** @description Default 20. */
                limit?: number;
            };
            header?: never;
            path: {
                tenant: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The fires. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        fires: components["schemas"]["RoutineFire"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    fireTenantRoutine: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["FireRoutine"];
            };
        };
        responses: {
            /** @description The fire, and the job it started. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoutineFire"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removePluginRoutine: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The routine removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        removed: string;
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeRoutine: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The routine removed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        removed: string;
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pluginRoutineSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The signing secret, shown this once. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoutineSecret"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    routineSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The signing secret, shown this once. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoutineSecret"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pauseRoutine: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The routine as it now is. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Routine"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pauseTenantRoutine: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The routine as it now is. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Routine"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resumeRoutine: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The routine as it now is. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Routine"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resumeTenantRoutine: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The routine as it now is. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Routine"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    chatAgent: {
        parameters: {
            query: {
                agent: string;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agent. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatAgent"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    openChat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OpenChat"];
            };
        };
        responses: {
            /** @description The answer, streamed (event stream only). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatTurn"];
                    "text/event-stream": string;
                };
            };
            /** @description The chat's job and the agent's answer. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatTurn"];
                    "text/event-stream": string;
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sayInChat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChatMessage"];
            };
        };
        responses: {
            /** @description The job and the agent's answer. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChatTurn"];
                    "text/event-stream": string;
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    endChat: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The chat's job, ended. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Job"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    a2aAgentCard: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
                agent: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The agent's card. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["A2aAgentCard"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    a2aJsonRpc: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
                agent: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["A2aJsonRpcRequest"];
            };
        };
        responses: {
            /** @description The method's answer; a stream for the streaming methods. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["A2aJsonRpcResponse"];
                    "text/event-stream": string;
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listNodes: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The nodes. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        nodes: components["schemas"]["Node"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPools: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The mappings. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        pools: components["schemas"]["PoolMapping"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setPool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetPool"];
            };
        };
        responses: {
            /** @description The mapping. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PoolMapping"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removePool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listChannels: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The channels. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        channels: components["schemas"]["Channel"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendChannelMessage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
                channel: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The surface's channel ID (a Slack channel, a webhook's channel). */
                    to: string;
                    /** @description The thread to post in. */
                    thread?: string;
                    text: string;
                };
            };
        };
        responses: {
            /** @description Queued in the outbox: the drain delivers it. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    callTool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ToolCall"];
            };
        };
        responses: {
            /** @description The call's report. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ToolCallReport"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTenants: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tenants. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tenants: components["schemas"]["Tenant"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTenant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTenant"];
            };
        };
        responses: {
            /** @description The tenant. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tenant"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listUsers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The users. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        users: components["schemas"]["User"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    addUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AddUser"];
            };
        };
        responses: {
            /** @description The user. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                user: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The user, as it was. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSkillProposals: {
        parameters: {
            query?: {
                status?: "pending" | "approved" | "rejected";
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The proposals. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        proposals: components["schemas"]["SkillProposal"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSkillProposal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The proposal. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ShownSkillProposal"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    approveSkillProposal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApproveSkillProposal"];
            };
        };
        responses: {
            /** @description The proposal, and what the apply function returned. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApprovedSkillProposal"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rejectSkillProposal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RejectSkillProposal"];
            };
        };
        responses: {
            /** @description The proposal, rejected. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SkillProposal"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    mcpStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tools. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tools: components["schemas"]["McpToolStatus"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMcpSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The names. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        secrets: components["schemas"]["McpSecretNames"][];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setMcpSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetMcpSecret"];
            };
        };
        responses: {
            /** @description What was set, by name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tool: string;
                        /** @enum {string} */
                        kind: "env" | "header" | "oauth";
                        name: string;
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeMcpSecret: {
        parameters: {
            query: {
                tool: string;
                kind?: "env" | "header" | "oauth";
                /** @description With kind: one secret; neither: all. */
                name?: string;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Whether there was any. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tool: string;
                        removed: boolean;
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    keepMcpImportSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                plugin: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["KeepMcpSecrets"];
            };
        };
        responses: {
            /** @description Kept. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    mcpGet: {
        parameters: {
            query?: {
                /** @description Serve the functions this agent may call, as it; the tenant's catalog when left out (a caller limited to some agents must name one). */
                agent?: string;
            };
            header?: {
                /** @description The MCP session, once initialized. */
                "mcp-session-id"?: string;
            };
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The MCP answer, as JSON or as a stream of server-sent events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpMessage"];
                    "text/event-stream": string;
                };
            };
            /** @description A notification or response accepted. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    mcpPost: {
        parameters: {
            query?: {
                /** @description Serve the functions this agent may call, as it; the tenant's catalog when left out (a caller limited to some agents must name one). */
                agent?: string;
            };
            header?: {
                /** @description The MCP session, once initialized. */
                "mcp-session-id"?: string;
            };
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["McpMessage"];
            };
        };
        responses: {
            /** @description The MCP answer, as JSON or as a stream of server-sent events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpMessage"];
                    "text/event-stream": string;
                };
            };
            /** @description A notification or response accepted. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    mcpDelete: {
        parameters: {
            query?: {
                /** @description Serve the functions this agent may call, as it; the tenant's catalog when left out (a caller limited to some agents must name one). */
                agent?: string;
            };
            header?: {
                /** @description The MCP session, once initialized. */
                "mcp-session-id"?: string;
            };
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The MCP answer, as JSON or as a stream of server-sent events. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["McpMessage"];
                    "text/event-stream": string;
                };
            };
            /** @description A notification or response accepted. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRemoteSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The names. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        names: string[];
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    setRemoteSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                tenant: string;
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SetRemoteSecret"];
            };
        };
        responses: {
            /** @description The secret's name. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        name: string;
                    };
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    usage: {
        parameters: {
            query: {
                /** @description What each row totals. */
                by: "agent" | "model" | "day";
                /** @description Calls at or after the hour this time falls in, epoch milliseconds; default the last 30 days. */
                since?: number;
            };
            header?: never;
            path: {
                tenant: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The totals, one row per agent, model or day. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Usage"];
                };
            };
            /** @description No credentials, or a key the server does not accept (UNAUTHENTICATED). */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The caller's role does not allow this (FORBIDDEN), or a cross-origin request. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No such tenant or part, or one the caller may not see (NOT_FOUND). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is larger than the server accepts (REQUEST_TOO_LARGE). */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request does not match its schema (INVALID_INPUT). */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many failed sign-ins; Retry-After says when to try again (TOO_MANY_REQUESTS). */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Any other error, in the one error shape, with its code's status. */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
