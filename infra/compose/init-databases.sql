-- One database per service (ARCHITECTURE.md: no service reads another's). Runs once, when the volume is new.
CREATE DATABASE confab_settings;
CREATE DATABASE confab_messaging;
CREATE DATABASE confab_groups;
CREATE DATABASE confab_invitations;
CREATE DATABASE confab_push;
