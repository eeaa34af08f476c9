-- The single progress record (SPEC 3: id "main").
INSERT INTO "progress" ("id", "manual_adjustment", "goal_amount") VALUES ('main', 0, 500000) ON CONFLICT ("id") DO NOTHING;
