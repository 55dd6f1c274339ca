-- Who may do what with an application's processes: an owner user, an owner group, and a permission type for each of
-- owner / group / others (0 none, 4 read, 6 read + write, 7 read + write + execute). The creator becomes the owner.
-- Applications that existed before owners did have none: only administrators (and "others") reach them.
ALTER TABLE application
    ADD COLUMN owner_user        VARCHAR(255),
    ADD COLUMN owner_group       VARCHAR(255),
    ADD COLUMN owner_permission  SMALLINT NOT NULL DEFAULT 7 CHECK (owner_permission IN (0, 4, 6, 7)),
    ADD COLUMN group_permission  SMALLINT NOT NULL DEFAULT 6 CHECK (group_permission IN (0, 4, 6, 7)),
    ADD COLUMN others_permission SMALLINT NOT NULL DEFAULT 4 CHECK (others_permission IN (0, 4, 6, 7)),
    -- Rows seeded by migrations are master data: nobody deletes them.
    ADD COLUMN master_data       BOOLEAN  NOT NULL DEFAULT false;

-- The seeded default application is everyone's: any developer may register processes there and any operator run them
-- (roles still decide who is a developer or an operator).
UPDATE application SET master_data = true, others_permission = 7 WHERE application_id = 1;

-- When the application's current state was last put on the registry topic: services that enforce the permissions
-- (execution) learn them from there. NULL = never: announced when registry-service starts.
ALTER TABLE application ADD COLUMN announced_at TIMESTAMPTZ;
