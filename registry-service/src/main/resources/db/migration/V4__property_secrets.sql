-- Values of the secret config groups (credential, security) are kept as AES-256-GCM ciphertexts, exactly like server
-- credentials (nonce || ciphertext+tag, the associated data binding each to its process and key); their prop_value
-- is '' then. Rows written before this change still hold clear text: the service seals them when it starts (it has
-- the key, SQL has not), so the constraint below is NOT VALID: it holds for every row written from now on, and for
-- the old rows as soon as they are sealed.
ALTER TABLE property
    ADD COLUMN prop_value_ct  BYTEA,
    ADD COLUMN secrets_key_id VARCHAR(32),
    ADD CONSTRAINT property_ciphertext_has_key CHECK (prop_value_ct IS NULL OR secrets_key_id IS NOT NULL);

ALTER TABLE property
    ADD CONSTRAINT property_secret_not_clear
        CHECK (lower(config_group) NOT IN ('credential', 'security') OR (prop_value = '' AND prop_value_ct IS NOT NULL))
        NOT VALID;
