/**
 * The model catalog kept offline: the model list, the endpoints of models already opened, the
 * preset versions looked up, and small snapshots (ZDR endpoints, counts per output modality),
 * each with the time it was fetched. Everything is keyed by the catalog's address, because the
 * EU host lists fewer models than the US one. Items are stored as the service's JSON, so a field
 * the service adds later is kept.
 */
export const sql = `
CREATE TABLE catalog_models (
  host TEXT NOT NULL,
  id TEXT NOT NULL,
  position INTEGER NOT NULL,
  json TEXT NOT NULL,
  PRIMARY KEY (host, id)
) WITHOUT ROWID;
CREATE TABLE catalog_snapshots (
  host TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('models', 'zdr', 'counts')),
  fetched_at INTEGER NOT NULL,
  json TEXT,
  PRIMARY KEY (host, kind)
) WITHOUT ROWID;
CREATE TABLE catalog_endpoints (
  host TEXT NOT NULL,
  model_id TEXT NOT NULL,
  fetched_at INTEGER NOT NULL,
  json TEXT NOT NULL,
  PRIMARY KEY (host, model_id)
) WITHOUT ROWID;
CREATE TABLE catalog_presets (
  host TEXT NOT NULL,
  slug TEXT NOT NULL,
  version INTEGER NOT NULL CHECK (version >= 1),
  fetched_at INTEGER NOT NULL,
  json TEXT NOT NULL,
  PRIMARY KEY (host, slug, version)
) WITHOUT ROWID;
`;
