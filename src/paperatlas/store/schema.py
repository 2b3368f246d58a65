"""The atlas's schema: numbered migrations, applied in order, one transaction each.

`PRAGMA user_version` holds how many have run. A new migration goes at the end of
MIGRATIONS (never edit one that has shipped: existing atlases have run it already);
`StoreBase` applies what a file lacks when it opens it for writing.
"""

from __future__ import annotations

MIGRATIONS: list[str] = [
    # 1: papers, lists, membership, full-text index, dedup fingerprints
    """
    CREATE TABLE papers (
        id TEXT PRIMARY KEY,
        title TEXT,
        abstract TEXT NOT NULL,
        authors TEXT NOT NULL DEFAULT '[]',
        keywords TEXT NOT NULL DEFAULT '[]',
        venue TEXT,
        year INTEGER,
        area TEXT,
        decision TEXT,
        rating REAL,
        urls TEXT NOT NULL DEFAULT '[]',
        source TEXT,
        extra TEXT NOT NULL DEFAULT '{}',
        added_at TEXT NOT NULL DEFAULT (datetime('now')),
        updated_at TEXT NOT NULL DEFAULT (datetime('now'))
    );
    CREATE INDEX papers_area ON papers(area);
    CREATE INDEX papers_decision ON papers(decision);

    CREATE TABLE lists (
        name TEXT PRIMARY KEY,
        created_at TEXT NOT NULL DEFAULT (datetime('now'))
    );
    CREATE TABLE list_members (
        list_name TEXT NOT NULL REFERENCES lists(name) ON DELETE CASCADE,
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        position INTEGER,
        PRIMARY KEY (list_name, paper_id)
    );
    CREATE INDEX list_members_paper ON list_members(paper_id);

    -- Normalised-text hashes of every abstract version a paper is known by
    -- (submitted and camera-ready), for exact dedup.
    CREATE TABLE paper_hashes (
        hash TEXT PRIMARY KEY,
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE
    );
    CREATE INDEX paper_hashes_paper ON paper_hashes(paper_id);
    -- MinHash signatures (uint64 blobs) for near-duplicate detection.
    CREATE TABLE paper_minhash (
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        variant INTEGER NOT NULL DEFAULT 0,
        signature BLOB NOT NULL,
        PRIMARY KEY (paper_id, variant)
    );

    CREATE VIRTUAL TABLE papers_fts USING fts5(
        title, abstract, keywords,
        content='papers', content_rowid='rowid',
        tokenize='porter unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER papers_ai AFTER INSERT ON papers BEGIN
        INSERT INTO papers_fts(rowid, title, abstract, keywords)
        VALUES (new.rowid, new.title, new.abstract, new.keywords);
    END;
    CREATE TRIGGER papers_ad AFTER DELETE ON papers BEGIN
        INSERT INTO papers_fts(papers_fts, rowid, title, abstract, keywords)
        VALUES ('delete', old.rowid, old.title, old.abstract, old.keywords);
    END;
    CREATE TRIGGER papers_au AFTER UPDATE OF title, abstract, keywords ON papers BEGIN
        INSERT INTO papers_fts(papers_fts, rowid, title, abstract, keywords)
        VALUES ('delete', old.rowid, old.title, old.abstract, old.keywords);
        INSERT INTO papers_fts(rowid, title, abstract, keywords)
        VALUES (new.rowid, new.title, new.abstract, new.keywords);
    END;
    """,
    # 2: per-paper facts from enrich/ (plus the columns filters need), vectors, topics, marks
    """
    CREATE TABLE facts (
        paper_id TEXT PRIMARY KEY REFERENCES papers(id) ON DELETE CASCADE,
        name TEXT,
        kind TEXT,
        has_code INTEGER NOT NULL DEFAULT 0,
        display_title TEXT,
        predicted_area TEXT,
        data TEXT NOT NULL DEFAULT '{}',
        text_hash TEXT NOT NULL,
        version TEXT NOT NULL,
        updated_at TEXT NOT NULL DEFAULT (datetime('now'))
    );
    CREATE INDEX facts_kind ON facts(kind);

    CREATE TABLE embeddings (
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        model TEXT NOT NULL,
        dim INTEGER NOT NULL,
        vector BLOB NOT NULL,
        text_hash TEXT NOT NULL,
        PRIMARY KEY (model, paper_id)
    );

    -- One stored map per (scope, model); scope is a list name or '*' for the whole store.
    CREATE TABLE maps (
        scope TEXT NOT NULL,
        model TEXT NOT NULL,
        signature TEXT NOT NULL,
        meta TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL DEFAULT (datetime('now')),
        PRIMARY KEY (scope, model)
    );
    CREATE TABLE topics (
        scope TEXT NOT NULL,
        model TEXT NOT NULL,
        level INTEGER NOT NULL,          -- 0 = broad, 1 = fine
        topic_id INTEGER NOT NULL,
        parent_id INTEGER,
        label TEXT NOT NULL,
        size INTEGER NOT NULL,
        x REAL, y REAL,
        data TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (scope, model, level, topic_id)
    );
    CREATE TABLE paper_topics (
        scope TEXT NOT NULL,
        model TEXT NOT NULL,
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        x REAL NOT NULL, y REAL NOT NULL,
        broad INTEGER NOT NULL,
        fine INTEGER NOT NULL,
        outlier INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (scope, model, paper_id)
    );

    -- Likes (+1) and dislikes (-1) per named collection; 'likes' is the default.
    CREATE TABLE marks (
        collection TEXT NOT NULL,
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        value INTEGER NOT NULL,
        created_at TEXT NOT NULL DEFAULT (datetime('now')),
        PRIMARY KEY (collection, paper_id)
    );
    """,
    # 3 (embed): fitted embedding models that live with the corpus (lsa), as opaque blobs
    """
    CREATE TABLE embed_models (
        name TEXT PRIMARY KEY,
        data BLOB NOT NULL,
        meta TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL DEFAULT (datetime('now'))
    );
    """,
    # 4 (ingest): what the readers find beside the abstract, and identifiers for dedup.
    # A title-only paper is stored with abstract '' (no flag: derived from the empty abstract).
    """
    ALTER TABLE papers ADD COLUMN identifiers TEXT NOT NULL DEFAULT '{}';
    ALTER TABLE papers ADD COLUMN code_urls TEXT NOT NULL DEFAULT '[]';
    ALTER TABLE papers ADD COLUMN section TEXT;
    ALTER TABLE papers ADD COLUMN date TEXT;
    -- arXiv id (no version), DOI (lower case), OpenReview id, hash of the normalised title:
    -- the same paper read from two lists or formats finds its stored twin through these
    -- (an identifier equal to the paper's own id is not repeated here).
    CREATE TABLE paper_identifiers (
        kind TEXT NOT NULL,
        value TEXT NOT NULL,
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        PRIMARY KEY (kind, value)
    ) WITHOUT ROWID;
    CREATE INDEX paper_identifiers_paper ON paper_identifiers(paper_id);
    """,
    # (store) a paper whose title or abstract changes has its facts marked stale
    # (text_hash ''), so what enrich still has to do is one query: facts missing, of an
    # older extractor version, or stale (Store.facts.pending).
    """
    CREATE TRIGGER IF NOT EXISTS papers_text_changed AFTER UPDATE OF title, abstract ON papers
    WHEN old.title IS NOT new.title OR old.abstract IS NOT new.abstract
    BEGIN
        UPDATE facts SET text_hash = '' WHERE paper_id = new.id;
    END;
    """,
    # (enrich) the list's own code links are links of the paper (facts.has_code): a change
    # of them marks the facts stale too
    """
    CREATE TRIGGER papers_links_changed AFTER UPDATE OF code_urls ON papers
    WHEN old.code_urls IS NOT new.code_urls
    BEGIN
        UPDATE facts SET text_hash = '' WHERE paper_id = new.id;
    END;
    """,
    # 7 (store) the current facts (not stale) by extractor version: what enrich still has
    # to do is then papers minus current facts, two counts on indexes, where a join read
    # every facts record (60-100 ms at 15k papers, on every `add`; Store.facts.pending)
    """
    CREATE INDEX facts_current ON facts(version) WHERE text_hash != '';
    """,
    # 8 (store) which vectors a model has, and of what text (Store.vectors.state, read by
    # every process that opens a vector index to check the index is current), from an
    # index of ~70 bytes a paper instead of the records that hold the vectors (1.2 GB at a
    # million papers with the static model: a cold `paperatlas search` read it all); and
    # a paper's rows found by its id where the keys start with something else, so that
    # re-keying or deleting one paper (a merge in `add`; the foreign keys' cascade) does
    # not scan every vector, topic and mark of the store
    """
    CREATE INDEX embeddings_state ON embeddings(model, paper_id, text_hash);
    CREATE INDEX embeddings_paper ON embeddings(paper_id);
    CREATE INDEX paper_topics_paper ON paper_topics(paper_id);
    CREATE INDEX marks_paper ON marks(paper_id);
    """,
    # 9 (store) the paper list's sort keys, stored so that an index serves a sorted page
    # (store/sortkeys.py): sorting by an expression of Python's str.lower made SQLite sort
    # every row, 61-108 s a page at a million papers. One row per paper by its rowid; the
    # text keys are blanked (NULL) here by triggers and computed by the store in Python
    # (at the end of each write transaction; for the rows this inserts, in batches after
    # the migration). IF NOT EXISTS throughout: a store stamped back to 8 migrates again.
    """
    CREATE TABLE IF NOT EXISTS paper_sort (
        rowid INTEGER PRIMARY KEY,   -- papers.rowid
        title_key TEXT,
        name_key TEXT,
        rating_key REAL NOT NULL DEFAULT 1
    );
    INSERT OR IGNORE INTO paper_sort(rowid, rating_key)
        SELECT rowid, -coalesce(nullif(rating, 0), -1) FROM papers;
    CREATE INDEX IF NOT EXISTS paper_sort_title ON paper_sort(title_key);
    CREATE INDEX IF NOT EXISTS paper_sort_name ON paper_sort(name_key);
    CREATE INDEX IF NOT EXISTS paper_sort_rating ON paper_sort(rating_key);
    CREATE TRIGGER IF NOT EXISTS paper_sort_ai AFTER INSERT ON papers BEGIN
        INSERT OR REPLACE INTO paper_sort(rowid, rating_key)
        VALUES (new.rowid, -coalesce(nullif(new.rating, 0), -1));
    END;
    CREATE TRIGGER IF NOT EXISTS paper_sort_ad AFTER DELETE ON papers BEGIN
        DELETE FROM paper_sort WHERE rowid = old.rowid;
    END;
    CREATE TRIGGER IF NOT EXISTS paper_sort_title_changed AFTER UPDATE OF title ON papers
    WHEN old.title IS NOT new.title
    BEGIN
        UPDATE paper_sort SET title_key = NULL WHERE rowid = new.rowid;
    END;
    CREATE TRIGGER IF NOT EXISTS paper_sort_rating_changed AFTER UPDATE OF rating ON papers
    WHEN old.rating IS NOT new.rating
    BEGIN
        UPDATE paper_sort SET rating_key = -coalesce(nullif(new.rating, 0), -1) WHERE rowid = new.rowid;
    END;
    CREATE TRIGGER IF NOT EXISTS paper_sort_facts_ai AFTER INSERT ON facts BEGIN
        UPDATE paper_sort SET title_key = NULL
        WHERE rowid = (SELECT rowid FROM papers WHERE id = new.paper_id);
    END;
    CREATE TRIGGER IF NOT EXISTS paper_sort_facts_au AFTER UPDATE OF paper_id, name, display_title ON facts
    BEGIN
        UPDATE paper_sort SET title_key = NULL
        WHERE rowid IN (SELECT rowid FROM papers WHERE id IN (old.paper_id, new.paper_id));
    END;
    CREATE TRIGGER IF NOT EXISTS paper_sort_facts_ad AFTER DELETE ON facts BEGIN
        UPDATE paper_sort SET title_key = NULL
        WHERE rowid = (SELECT rowid FROM papers WHERE id = old.paper_id);
    END;
    """,
    # 10 (store) change counts kept by triggers: one per model for its vectors ("vectors
    # <model>": insert, replace, update, delete, a paper's cascade) and one for the facts
    # ("facts"). What is derived from them and saved beside the store (the ANN graph, the
    # table of paper names search looks up) records the count it was made at; a process
    # that opens it compares one number (store/generation.py) instead of reading every
    # paper's hash or facts (a million rows at 1M papers, on every cold `paperatlas
    # search`). A count starts at a random number, so an atlas made again at the same path
    # does not repeat the numbers of the one it replaced; those of an older atlas come
    # from an index probe per model (no scan). IF NOT EXISTS / OR IGNORE throughout: a
    # store stamped back to 9 migrates again.
    """
    CREATE TABLE IF NOT EXISTS change_counts (
        name TEXT PRIMARY KEY,
        changes INTEGER NOT NULL
    );
    INSERT OR IGNORE INTO change_counts(name, changes)
        WITH RECURSIVE models(model) AS (
            SELECT min(model) FROM embeddings
            UNION ALL
            SELECT (SELECT min(model) FROM embeddings WHERE model > models.model)
            FROM models WHERE models.model IS NOT NULL
        )
        SELECT 'vectors ' || model, random() & 4503599627370495 FROM models WHERE model IS NOT NULL;
    INSERT OR IGNORE INTO change_counts(name, changes) VALUES ('facts', random() & 4503599627370495);
    CREATE TRIGGER IF NOT EXISTS change_counts_vectors_ai AFTER INSERT ON embeddings BEGIN
        INSERT INTO change_counts(name, changes) VALUES ('vectors ' || new.model, random() & 4503599627370495)
        ON CONFLICT(name) DO UPDATE SET changes = changes + 1;
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_vectors_ad AFTER DELETE ON embeddings BEGIN
        INSERT INTO change_counts(name, changes) VALUES ('vectors ' || old.model, random() & 4503599627370495)
        ON CONFLICT(name) DO UPDATE SET changes = changes + 1;
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_vectors_au AFTER UPDATE ON embeddings BEGIN
        INSERT INTO change_counts(name, changes) VALUES ('vectors ' || old.model, random() & 4503599627370495)
        ON CONFLICT(name) DO UPDATE SET changes = changes + 1;
        INSERT INTO change_counts(name, changes) VALUES ('vectors ' || new.model, random() & 4503599627370495)
        ON CONFLICT(name) DO UPDATE SET changes = changes + 1;
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_facts_ai AFTER INSERT ON facts BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'facts';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_facts_ad AFTER DELETE ON facts BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'facts';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_facts_au AFTER UPDATE ON facts BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'facts';
    END;
    """,
    # 11 (store) a list's page in list order, or by rating then list order, from an index:
    # at a million papers `/papers?list=` sorted the list's members by position (2.4-3.3 s
    # of CPU a page), and the rating sort, whose ratings mostly tie (unrated papers),
    # sorted each tie group by position (6.5 s). `list_rating` holds one row per list
    # member (by list_members' rowid) with its paper's `paper_sort.rating_key` (the same
    # expression, kept by the triggers: a member inserted, moved or removed, a paper's
    # rating changed), so that one index holds a list's rating order with the list order
    # breaking ties. A side table, not a column of list_members: no ALTER TABLE, so a store
    # stamped back to 10 migrates again (IF NOT EXISTS / OR IGNORE throughout). The rows go
    # in with the unrated key; only the members of rated papers are then written (found
    # from paper_sort's rating index: no scan of the papers).
    """
    CREATE TABLE IF NOT EXISTS list_rating (
        rowid INTEGER PRIMARY KEY,   -- list_members.rowid
        list_name TEXT NOT NULL,
        rating_key REAL NOT NULL DEFAULT 1,
        position INTEGER
    );
    INSERT OR IGNORE INTO list_rating(rowid, list_name, position)
        SELECT rowid, list_name, position FROM list_members;
    UPDATE list_rating SET rating_key = (
        SELECT s.rating_key FROM list_members m JOIN papers p ON p.id = m.paper_id
        JOIN paper_sort s ON s.rowid = p.rowid WHERE m.rowid = list_rating.rowid
    )
    WHERE rowid IN (
        SELECT m.rowid FROM paper_sort s JOIN papers p ON p.rowid = s.rowid
        JOIN list_members m ON m.paper_id = p.id
        WHERE s.rating_key < 1 OR s.rating_key > 1
    );
    CREATE INDEX IF NOT EXISTS list_members_position ON list_members(list_name, position);
    CREATE INDEX IF NOT EXISTS list_rating_order ON list_rating(list_name, rating_key, position);
    CREATE TRIGGER IF NOT EXISTS list_rating_ai AFTER INSERT ON list_members BEGIN
        INSERT OR REPLACE INTO list_rating(rowid, list_name, rating_key, position)
        VALUES (
            new.rowid, new.list_name,
            coalesce((SELECT -coalesce(nullif(rating, 0), -1) FROM papers WHERE id = new.paper_id), 1),
            new.position
        );
    END;
    CREATE TRIGGER IF NOT EXISTS list_rating_au AFTER UPDATE OF list_name, paper_id, position ON list_members
    BEGIN
        INSERT OR REPLACE INTO list_rating(rowid, list_name, rating_key, position)
        VALUES (
            new.rowid, new.list_name,
            coalesce((SELECT -coalesce(nullif(rating, 0), -1) FROM papers WHERE id = new.paper_id), 1),
            new.position
        );
    END;
    CREATE TRIGGER IF NOT EXISTS list_rating_ad AFTER DELETE ON list_members BEGIN
        DELETE FROM list_rating WHERE rowid = old.rowid;
    END;
    CREATE TRIGGER IF NOT EXISTS list_rating_changed AFTER UPDATE OF rating ON papers
    WHEN old.rating IS NOT new.rating
    BEGIN
        UPDATE list_rating SET rating_key = -coalesce(nullif(new.rating, 0), -1)
        WHERE rowid IN (SELECT rowid FROM list_members WHERE paper_id = new.id);
    END;
    """,
    # results of a model the user brings (llm/): one row per (paper, task, model, prompt
    # version), kept whether the answer was accepted or rejected (and why), so a rerun asks
    # only for what is missing
    """
    CREATE TABLE IF NOT EXISTS llm_results (
        paper_id TEXT NOT NULL REFERENCES papers(id) ON DELETE CASCADE,
        task TEXT NOT NULL,
        model TEXT NOT NULL,
        prompt TEXT NOT NULL,
        output TEXT NOT NULL,
        accepted INTEGER NOT NULL,
        reason TEXT,
        tokens INTEGER NOT NULL DEFAULT 0,
        seconds REAL NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL DEFAULT (datetime('now')),
        PRIMARY KEY (paper_id, task, model, prompt)
    );
    """,
    # the records a user pointed `add --records` at (`h3`, `li.pub`), kept
    # per list so that adding the file again reads it the same way. A side table: no
    # ALTER TABLE, so a store stamped back to an earlier version migrates again.
    """
    CREATE TABLE IF NOT EXISTS list_reading (
        list_name TEXT PRIMARY KEY REFERENCES lists(name) ON DELETE CASCADE,
        records TEXT NOT NULL
    );
    """,
    # what a person keeps about a paper: a triage state, a Markdown note, tags. No foreign
    # key to papers on purpose: removing a list and adding it again (same ids) finds them
    # again, and merging twins moves them to the kept id instead of dropping them.
    """
    CREATE TABLE IF NOT EXISTS paper_state (
        paper_id TEXT PRIMARY KEY,
        state TEXT NOT NULL CHECK (state IN ('read', 'skipped', 'saved')),
        updated_at TEXT NOT NULL DEFAULT (datetime('now'))
    );
    CREATE TABLE IF NOT EXISTS paper_notes (
        paper_id TEXT PRIMARY KEY,
        note TEXT NOT NULL,
        updated_at TEXT NOT NULL DEFAULT (datetime('now'))
    );
    CREATE TABLE IF NOT EXISTS paper_tags (
        paper_id TEXT NOT NULL,
        tag TEXT NOT NULL,
        created_at TEXT NOT NULL DEFAULT (datetime('now')),
        PRIMARY KEY (paper_id, tag)
    );
    CREATE INDEX IF NOT EXISTS paper_tags_tag ON paper_tags(tag);
    """,
    # 15 (ingest) the files a list was last added from, as they were then (size, mtime, content
    # hash, how they were read) and the list's members after that add: `open` does not read
    # again a file that is still the same while its list is (ingest/unchanged.py)
    """
    CREATE TABLE IF NOT EXISTS list_files (
        list_name TEXT NOT NULL REFERENCES lists(name) ON DELETE CASCADE,
        path TEXT NOT NULL,
        size INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        sha256 TEXT NOT NULL,
        reading TEXT NOT NULL,
        members TEXT NOT NULL,
        PRIMARY KEY (list_name, path)
    );
    """,
    # 16: what a person follows (a saved search, an author, a map topic) and when each list was
    # last looked at. No foreign key to papers or lists: a follow outlives the lists it
    # matched, and a list removed and added again keeps its "last seen".
    """
    CREATE TABLE IF NOT EXISTS follows (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('search', 'author', 'topic')),
        value TEXT NOT NULL,
        detail TEXT NOT NULL DEFAULT '{}',
        created_at TEXT NOT NULL DEFAULT (datetime('now')),
        fed_at TEXT,
        UNIQUE (kind, value, detail)
    );
    CREATE TABLE IF NOT EXISTS list_seen (
        list_name TEXT PRIMARY KEY,
        seen_upto TEXT NOT NULL
    );
    """,
    # 17 (store) each paper's normalised title as a hash (store/sortkeys.py `title_hash`),
    # kept with its sort keys by the same triggers and fill: a query that is a paper's exact
    # title finds it by an index probe, where a scan of every title after each commit made
    # a search during an add several times slower. The rows this adds are computed by the
    # backfill after the migration (their sort keys blanked here). IF NOT EXISTS throughout.
    """
    CREATE TABLE IF NOT EXISTS paper_titles (
        rowid INTEGER PRIMARY KEY,   -- papers.rowid
        title_hash TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS paper_titles_hash ON paper_titles(title_hash);
    CREATE TRIGGER IF NOT EXISTS paper_titles_ad AFTER DELETE ON papers BEGIN
        DELETE FROM paper_titles WHERE rowid = old.rowid;
    END;
    UPDATE paper_sort SET title_key = NULL WHERE rowid NOT IN (SELECT rowid FROM paper_titles);
    """,
    # 18 (store) each embedding model's meta beside its blob, kept by triggers: `meta` comes
    # after the blob in `embed_models`, so reading it walked the blob's overflow pages (the
    # Chinese vocabulary's 10 MB: ~7 ms, on every search page after each commit for the
    # status line). IF NOT EXISTS / OR REPLACE throughout.
    """
    CREATE TABLE IF NOT EXISTS embed_model_meta (
        name TEXT PRIMARY KEY,
        meta TEXT NOT NULL
    );
    INSERT OR REPLACE INTO embed_model_meta(name, meta) SELECT name, meta FROM embed_models;
    CREATE TRIGGER IF NOT EXISTS embed_model_meta_ai AFTER INSERT ON embed_models BEGIN
        INSERT OR REPLACE INTO embed_model_meta(name, meta) VALUES (new.name, new.meta);
    END;
    CREATE TRIGGER IF NOT EXISTS embed_model_meta_au AFTER UPDATE ON embed_models BEGIN
        DELETE FROM embed_model_meta WHERE name = old.name;
        INSERT OR REPLACE INTO embed_model_meta(name, meta) VALUES (new.name, new.meta);
    END;
    CREATE TRIGGER IF NOT EXISTS embed_model_meta_ad AFTER DELETE ON embed_models BEGIN
        DELETE FROM embed_model_meta WHERE name = old.name;
    END;
    """,
    # 19 (store) a change count of the papers' ids and titles, as migration 10's of the facts:
    # with the rows and largest rowid it says when a commit only added papers
    # (store/generation.py `TableMark`), so search's table of title words takes in the new
    # titles instead of reading every title again after each commit. Triggers of their own:
    # a bulk import drops `papers_ai` for its duration, never these. And a change count per
    # stored model (`model NAME`): what is read out of a model's blob (the Chinese query
    # vocabulary, ~30 MB) is kept while one row says the blob is the same, in every thread
    # (a thread's own change counter says nothing to another's). IF NOT EXISTS / OR IGNORE
    # throughout.
    """
    INSERT OR IGNORE INTO change_counts(name, changes) VALUES ('titles', random() & 4503599627370495);
    INSERT OR IGNORE INTO change_counts(name, changes)
        SELECT 'model ' || name, random() & 4503599627370495 FROM embed_models;
    CREATE TRIGGER IF NOT EXISTS change_counts_model_ai AFTER INSERT ON embed_models BEGIN
        INSERT INTO change_counts(name, changes) VALUES ('model ' || new.name, random() & 4503599627370495)
        ON CONFLICT(name) DO UPDATE SET changes = changes + 1;
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_model_ad AFTER DELETE ON embed_models BEGIN
        INSERT INTO change_counts(name, changes) VALUES ('model ' || old.name, random() & 4503599627370495)
        ON CONFLICT(name) DO UPDATE SET changes = changes + 1;
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_model_au AFTER UPDATE ON embed_models BEGIN
        INSERT INTO change_counts(name, changes) VALUES ('model ' || old.name, random() & 4503599627370495)
        ON CONFLICT(name) DO UPDATE SET changes = changes + 1;
        INSERT INTO change_counts(name, changes) VALUES ('model ' || new.name, random() & 4503599627370495)
        ON CONFLICT(name) DO UPDATE SET changes = changes + 1;
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_titles_ai AFTER INSERT ON papers BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'titles';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_titles_ad AFTER DELETE ON papers BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'titles';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_titles_au AFTER UPDATE OF id, title ON papers BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'titles';
    END;
    """,
    # 20 (store) a change count of everything a filter reads besides the facts (the papers'
    # ids, areas and decisions, the lists' members, tags, triage states and marks;
    # store/papers.py `_papers_query`): with the facts' count it says the ids every filter
    # allows are unchanged, in every thread of a server (search/filters.py), where a
    # thread's own change counter says nothing to another's. Only a change of what a filter
    # reads moves it: an update leaving those columns as they were does not, nor a like or
    # state written again as it is (INSERT OR REPLACE: the insert is counted before it is
    # made, when no row holds those values yet; a replaced row's delete fires no trigger).
    # IF NOT EXISTS / OR IGNORE throughout.
    """
    INSERT OR IGNORE INTO change_counts(name, changes) VALUES ('filtered', random() & 4503599627370495);
    CREATE TRIGGER IF NOT EXISTS change_counts_filtered_papers_ai AFTER INSERT ON papers BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'filtered';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_filtered_papers_ad AFTER DELETE ON papers BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'filtered';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_filtered_papers_au AFTER UPDATE OF id, area, decision ON papers
    WHEN old.id IS NOT new.id OR old.area IS NOT new.area OR old.decision IS NOT new.decision BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'filtered';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_filtered_list_members_ai AFTER INSERT ON list_members BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'filtered';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_filtered_list_members_ad AFTER DELETE ON list_members BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'filtered';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_filtered_list_members_au AFTER UPDATE OF list_name, paper_id ON list_members
    WHEN old.list_name IS NOT new.list_name OR old.paper_id IS NOT new.paper_id BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'filtered';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_filtered_paper_tags_ai AFTER INSERT ON paper_tags BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'filtered';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_filtered_paper_tags_ad AFTER DELETE ON paper_tags BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'filtered';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_filtered_paper_tags_au AFTER UPDATE OF paper_id, tag ON paper_tags
    WHEN old.paper_id IS NOT new.paper_id OR old.tag IS NOT new.tag BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'filtered';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_filtered_paper_state_bi BEFORE INSERT ON paper_state
    WHEN NOT EXISTS (SELECT 1 FROM paper_state WHERE paper_id = new.paper_id AND state = new.state) BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'filtered';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_filtered_paper_state_ad AFTER DELETE ON paper_state BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'filtered';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_filtered_paper_state_au AFTER UPDATE OF paper_id, state ON paper_state
    WHEN old.paper_id IS NOT new.paper_id OR old.state IS NOT new.state BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'filtered';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_filtered_marks_bi BEFORE INSERT ON marks
    WHEN NOT EXISTS (SELECT 1 FROM marks WHERE collection = new.collection AND paper_id = new.paper_id AND value = new.value) BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'filtered';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_filtered_marks_ad AFTER DELETE ON marks BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'filtered';
    END;
    CREATE TRIGGER IF NOT EXISTS change_counts_filtered_marks_au AFTER UPDATE OF collection, paper_id, value ON marks
    WHEN old.collection IS NOT new.collection OR old.paper_id IS NOT new.paper_id OR old.value IS NOT new.value BEGIN
        UPDATE change_counts SET changes = changes + 1 WHERE name = 'filtered';
    END;
    """,
]

# The oldest schema a read-only open uses as it is: the migrations after it only add
# indexes and derived tables (readers get the same answers, a little slower: without
# paper_sort a sorted page sorts by the expression), so an atlas the user may not write to
# needs no upgrade for them.
READABLE_FROM = 6
