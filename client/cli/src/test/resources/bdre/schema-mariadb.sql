-- The BDRE metadata tables an import reads, as BDRE's MySQL DDL shapes them (names in upper case; enqueuing and
-- next process ids as comma lists in VARCHAR columns), written from the seed's table descriptions and
-- /work/shared/spec/bdre-metadata.md section 2. Only the tables and columns the import reads, plus their keys.
-- BDRE inserts the default template with id 0, which MySQL/MariaDB take as "next id" unless told otherwise.
SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO');

CREATE TABLE BUS_DOMAIN (
    bus_domain_id    INT AUTO_INCREMENT PRIMARY KEY,
    description      VARCHAR(256) NOT NULL,
    bus_domain_name  VARCHAR(45)  NOT NULL,
    bus_domain_owner VARCHAR(45)  NOT NULL
);

CREATE TABLE USERS (
    username VARCHAR(45) PRIMARY KEY,
    password VARCHAR(45) NOT NULL,
    enabled  TINYINT(1)  NOT NULL DEFAULT 1
);

CREATE TABLE USER_ROLES (
    user_role_id INT AUTO_INCREMENT PRIMARY KEY,
    username     VARCHAR(45) NOT NULL,
    role         VARCHAR(45) NOT NULL,
    UNIQUE (role, username),
    FOREIGN KEY (username) REFERENCES USERS (username)
);

CREATE TABLE PERMISSION_TYPE (
    permission_type_id   INT PRIMARY KEY,
    permission_type_name VARCHAR(45) NOT NULL
);

CREATE TABLE PROCESS_TYPE (
    process_type_id        INT PRIMARY KEY,
    process_type_name      VARCHAR(45) NOT NULL,
    parent_process_type_id INT NULL
);

CREATE TABLE WORKFLOW_TYPE (
    workflow_id        INT PRIMARY KEY,
    workflow_type_name VARCHAR(45) NOT NULL
);

CREATE TABLE PROCESS_TEMPLATE (
    process_template_id      INT AUTO_INCREMENT PRIMARY KEY,
    description              VARCHAR(256) NOT NULL,
    add_ts                   TIMESTAMP    NOT NULL DEFAULT CURRENT_TIMESTAMP,
    process_name             VARCHAR(45)  NOT NULL,
    bus_domain_id            INT          NOT NULL,
    process_type_id          INT          NOT NULL,
    parent_process_id        INT          NULL,
    can_recover              TINYINT(1)   DEFAULT 1,
    batch_cut_pattern        VARCHAR(45)  NULL,
    next_process_template_id VARCHAR(256) NOT NULL DEFAULT '',
    delete_flag              TINYINT(1)   DEFAULT 0,
    workflow_id              INT          DEFAULT 1,
    FOREIGN KEY (bus_domain_id) REFERENCES BUS_DOMAIN (bus_domain_id),
    FOREIGN KEY (process_type_id) REFERENCES PROCESS_TYPE (process_type_id),
    FOREIGN KEY (parent_process_id) REFERENCES PROCESS_TEMPLATE (process_template_id),
    FOREIGN KEY (workflow_id) REFERENCES WORKFLOW_TYPE (workflow_id)
);

CREATE TABLE PROCESS (
    process_id           INT AUTO_INCREMENT PRIMARY KEY,
    description          VARCHAR(256) NOT NULL,
    add_ts               TIMESTAMP    NOT NULL DEFAULT CURRENT_TIMESTAMP,
    process_name         VARCHAR(45)  NOT NULL,
    bus_domain_id        INT          NOT NULL,
    process_type_id      INT          NOT NULL,
    parent_process_id    INT          NULL,
    can_recover          TINYINT(1)   DEFAULT 1,
    enqueuing_process_id VARCHAR(255) NOT NULL DEFAULT '0',
    batch_cut_pattern    VARCHAR(45)  NULL,
    next_process_id      VARCHAR(256) NOT NULL DEFAULT '',
    delete_flag          TINYINT(1)   DEFAULT 0,
    workflow_id          INT          DEFAULT 1,
    process_template_id  INT          DEFAULT 0,
    edit_ts              TIMESTAMP    NOT NULL DEFAULT CURRENT_TIMESTAMP,
    process_code         VARCHAR(256) NULL,
    user_name            VARCHAR(45)  NULL,
    owner_role_id        INT          NULL,
    user_access_id       INT          NOT NULL DEFAULT 7,
    group_access_id      INT          NOT NULL DEFAULT 4,
    others_access_id     INT          NOT NULL DEFAULT 0,
    FOREIGN KEY (bus_domain_id) REFERENCES BUS_DOMAIN (bus_domain_id),
    FOREIGN KEY (process_type_id) REFERENCES PROCESS_TYPE (process_type_id),
    FOREIGN KEY (parent_process_id) REFERENCES PROCESS (process_id),
    FOREIGN KEY (workflow_id) REFERENCES WORKFLOW_TYPE (workflow_id),
    FOREIGN KEY (process_template_id) REFERENCES PROCESS_TEMPLATE (process_template_id),
    FOREIGN KEY (user_name) REFERENCES USERS (username),
    FOREIGN KEY (owner_role_id) REFERENCES USER_ROLES (user_role_id),
    FOREIGN KEY (user_access_id) REFERENCES PERMISSION_TYPE (permission_type_id),
    FOREIGN KEY (group_access_id) REFERENCES PERMISSION_TYPE (permission_type_id),
    FOREIGN KEY (others_access_id) REFERENCES PERMISSION_TYPE (permission_type_id)
);

CREATE TABLE PROPERTIES (
    process_id   INT           NOT NULL,
    config_group VARCHAR(128)  NOT NULL,
    prop_key     VARCHAR(128)  NOT NULL,
    prop_value   VARCHAR(2048) NOT NULL,
    description  VARCHAR(1028) NOT NULL,
    PRIMARY KEY (process_id, prop_key),
    FOREIGN KEY (process_id) REFERENCES PROCESS (process_id)
);

CREATE TABLE PROPERTIES_TEMPLATE (
    process_template_id INT           NOT NULL,
    config_group        VARCHAR(128)  NOT NULL,
    prop_temp_key       VARCHAR(128)  NOT NULL,
    prop_temp_value     VARCHAR(2048) NOT NULL,
    description         VARCHAR(1028) NOT NULL,
    PRIMARY KEY (process_template_id, prop_temp_key),
    FOREIGN KEY (process_template_id) REFERENCES PROCESS_TEMPLATE (process_template_id)
);

CREATE TABLE SERVERS (
    server_id       INT AUTO_INCREMENT PRIMARY KEY,
    server_type     VARCHAR(45)  NULL,
    server_name     VARCHAR(45)  NOT NULL,
    server_metainfo VARCHAR(45)  NULL,
    login_user      VARCHAR(45)  NULL,
    login_password  VARCHAR(45)  NULL,
    ssh_private_key VARCHAR(512) NULL,
    server_ip       VARCHAR(45)  NULL
);
