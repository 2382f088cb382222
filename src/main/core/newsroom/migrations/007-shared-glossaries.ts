/**
 * Glossaries shared with a desk or the whole newsroom (issue #36, point 1): names spelled once for
 * everyone. Each reporter's app keeps a copy in its library and reads what changed since its last
 * pull (`change_xid >= cursor`, see newsroom-glossaries.ts), so nothing is ever deleted: a removed
 * entry is a tombstone (`deleted`) an offline copy learns of.
 *
 * Who sees and changes what is row-level security, ENABLEd and FORCEd, with plain policies as in
 * 003 (no SECURITY DEFINER):
 * - a glossary and its entries are visible to its owner, the members of its desk, and every
 *   login when it is the whole newsroom's (desk NULL);
 * - entries are written only by its owner or the editors of its desk (the whole newsroom's: its
 *   owner or an editor of any desk);
 * - a proposal is made by anyone who sees the glossary, as themselves; it is seen by its proposer
 *   and by those who may change the glossary, who decide it.
 *
 * Who did what is the login (`current_user`), filled by triggers whatever a writer sends. A
 * statement trigger notifies `verbatim_collaboration` with the payload 'glossary' only: every
 * listener hears every notification, so it never names a glossary, an entry or a person.
 */
const isMemberOfDesk = (desk: string) => `EXISTS (
    SELECT 1 FROM verbatim.desks d
    WHERE d.name = ${desk} AND pg_has_role(current_user, d.role_name, 'MEMBER'))`;

/** An editor of that desk, or with `desk` NULL an editor of any desk. */
const isEditorOf = (desk: string) => `EXISTS (
    SELECT 1 FROM verbatim.desk_members m JOIN verbatim.desks d ON d.name = m.desk
    WHERE (${desk} IS NULL OR m.desk = ${desk}) AND m.member = current_user AND m.role = 'editor'
      AND pg_has_role(current_user, d.role_name, 'MEMBER'))`;

const glossaryIsVisible = (g: string) =>
  `(${g}.owner = current_user OR ${g}.desk IS NULL OR ${isMemberOfDesk(`${g}.desk`)})`;

/** The glossary `id` is one the person asking may change (its own policy makes it visible first). */
const mayChangeGlossary = (id: string) => `EXISTS (
    SELECT 1 FROM verbatim.shared_glossaries g
    WHERE g.id = ${id} AND (g.owner = current_user OR ${isEditorOf('g.desk')}))`;

const kinds = "('person', 'place', 'organisation', 'term')";

export const sql = `
CREATE TABLE verbatim.shared_glossaries (
  id          uuid PRIMARY KEY,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  owner       name NOT NULL DEFAULT current_user,
  desk        text REFERENCES verbatim.desks (name) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  change_xid  xid8 NOT NULL DEFAULT pg_current_xact_id()
);

CREATE TABLE verbatim.shared_glossary_entries (
  glossary_id  uuid NOT NULL REFERENCES verbatim.shared_glossaries (id) ON DELETE CASCADE,
  term_key     text NOT NULL CHECK (length(term_key) BETWEEN 1 AND 100),
  term         text NOT NULL CHECK (length(term) BETWEEN 1 AND 100),
  kind         text NOT NULL CHECK (kind IN ${kinds}),
  misheard     jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(misheard) = 'array'),
  note         text NOT NULL DEFAULT '' CHECK (length(note) <= 500),
  revision     integer NOT NULL CHECK (revision > 0),
  last_change  uuid NOT NULL,
  changed_by   name NOT NULL DEFAULT current_user,
  changed_at   timestamptz NOT NULL DEFAULT now(),
  deleted      boolean NOT NULL DEFAULT false,
  change_xid   xid8 NOT NULL DEFAULT pg_current_xact_id(),
  PRIMARY KEY (glossary_id, term_key)
);

CREATE TABLE verbatim.shared_glossary_proposals (
  id           uuid PRIMARY KEY,
  glossary_id  uuid NOT NULL REFERENCES verbatim.shared_glossaries (id) ON DELETE CASCADE,
  term         text NOT NULL CHECK (length(term) BETWEEN 1 AND 100),
  kind         text NOT NULL CHECK (kind IN ${kinds}),
  misheard     jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(misheard) = 'array'),
  note         text NOT NULL DEFAULT '' CHECK (length(note) <= 500),
  proposed_by  name NOT NULL DEFAULT current_user,
  proposed_at  timestamptz NOT NULL DEFAULT now(),
  state        text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'accepted', 'declined')),
  decided_by   name,
  decided_at   timestamptz,
  change_xid   xid8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX shared_glossary_proposals_open ON verbatim.shared_glossary_proposals (glossary_id)
  WHERE state = 'open';

-- A pull reads what changed since its cursor: one index per table on the transaction id.
CREATE INDEX shared_glossaries_by_change ON verbatim.shared_glossaries (change_xid);
CREATE INDEX shared_glossary_entries_by_change ON verbatim.shared_glossary_entries (change_xid);
CREATE INDEX shared_glossary_proposals_by_change ON verbatim.shared_glossary_proposals (change_xid);

-- Who did what and when is the server's to say: the login, now, in this transaction.
CREATE FUNCTION verbatim.glossary_entry_stamped() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.changed_by := current_user;
  NEW.changed_at := now();
  NEW.change_xid := pg_current_xact_id();
  RETURN NEW;
END $$;
CREATE TRIGGER stamped BEFORE INSERT OR UPDATE ON verbatim.shared_glossary_entries
  FOR EACH ROW EXECUTE FUNCTION verbatim.glossary_entry_stamped();

CREATE FUNCTION verbatim.glossary_stamped() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.owner := current_user;
    NEW.created_at := now();
  END IF;
  NEW.change_xid := pg_current_xact_id();
  RETURN NEW;
END $$;
CREATE TRIGGER stamped BEFORE INSERT OR UPDATE ON verbatim.shared_glossaries
  FOR EACH ROW EXECUTE FUNCTION verbatim.glossary_stamped();

CREATE FUNCTION verbatim.glossary_proposal_stamped() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.proposed_by := current_user;
    NEW.proposed_at := now();
    NEW.state := 'open';
    NEW.decided_by := NULL;
    NEW.decided_at := NULL;
  ELSE
    -- A decision is the decider's: what was proposed, by whom, stays as it was.
    NEW.glossary_id := OLD.glossary_id;
    NEW.term := OLD.term;
    NEW.kind := OLD.kind;
    NEW.misheard := OLD.misheard;
    NEW.note := OLD.note;
    NEW.proposed_by := OLD.proposed_by;
    NEW.proposed_at := OLD.proposed_at;
    IF NEW.state IS DISTINCT FROM OLD.state THEN
      NEW.decided_by := current_user;
      NEW.decided_at := now();
    ELSE
      NEW.decided_by := OLD.decided_by;
      NEW.decided_at := OLD.decided_at;
    END IF;
  END IF;
  NEW.change_xid := pg_current_xact_id();
  RETURN NEW;
END $$;
CREATE TRIGGER stamped BEFORE INSERT OR UPDATE ON verbatim.shared_glossary_proposals
  FOR EACH ROW EXECUTE FUNCTION verbatim.glossary_proposal_stamped();

CREATE FUNCTION verbatim.glossary_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('verbatim_collaboration', 'glossary');
  RETURN NULL;
END $$;
${['shared_glossaries', 'shared_glossary_entries', 'shared_glossary_proposals']
  .map(
    (table) => `CREATE TRIGGER notified AFTER INSERT OR UPDATE OR DELETE ON verbatim.${table}
  FOR EACH STATEMENT EXECUTE FUNCTION verbatim.glossary_changed();
ALTER TABLE verbatim.${table} ENABLE ROW LEVEL SECURITY;
ALTER TABLE verbatim.${table} FORCE ROW LEVEL SECURITY;`,
  )
  .join('\n')}

CREATE POLICY visible_to_its_readers ON verbatim.shared_glossaries FOR SELECT
  USING (${glossaryIsVisible('shared_glossaries')});
CREATE POLICY shared_by_its_owner ON verbatim.shared_glossaries FOR INSERT
  WITH CHECK (owner = current_user AND (desk IS NULL OR ${isMemberOfDesk('shared_glossaries.desk')}));
GRANT SELECT, INSERT ON verbatim.shared_glossaries TO PUBLIC;

CREATE POLICY visible_with_its_glossary ON verbatim.shared_glossary_entries FOR SELECT
  USING (EXISTS (SELECT 1 FROM verbatim.shared_glossaries g WHERE g.id = shared_glossary_entries.glossary_id));
CREATE POLICY written_by_who_may_change ON verbatim.shared_glossary_entries FOR INSERT
  WITH CHECK (${mayChangeGlossary('shared_glossary_entries.glossary_id')});
CREATE POLICY changed_by_who_may_change ON verbatim.shared_glossary_entries FOR UPDATE
  USING (${mayChangeGlossary('shared_glossary_entries.glossary_id')})
  WITH CHECK (${mayChangeGlossary('shared_glossary_entries.glossary_id')});
-- No DELETE: a removed entry is a tombstone, so a copy offline at the time learns of it.
GRANT SELECT, INSERT, UPDATE ON verbatim.shared_glossary_entries TO PUBLIC;

CREATE POLICY seen_by_proposer_and_deciders ON verbatim.shared_glossary_proposals FOR SELECT
  USING (proposed_by = current_user OR ${mayChangeGlossary('shared_glossary_proposals.glossary_id')});
CREATE POLICY proposed_by_a_reader ON verbatim.shared_glossary_proposals FOR INSERT
  WITH CHECK (proposed_by = current_user
    AND EXISTS (SELECT 1 FROM verbatim.shared_glossaries g WHERE g.id = shared_glossary_proposals.glossary_id));
CREATE POLICY decided_by_who_may_change ON verbatim.shared_glossary_proposals FOR UPDATE
  USING (${mayChangeGlossary('shared_glossary_proposals.glossary_id')})
  WITH CHECK (${mayChangeGlossary('shared_glossary_proposals.glossary_id')});
GRANT SELECT, INSERT, UPDATE ON verbatim.shared_glossary_proposals TO PUBLIC;
`;
