"""Flask blueprints: api (JSON), lobby and table (pages), pwa."""
