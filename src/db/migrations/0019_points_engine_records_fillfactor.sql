-- Every engine step rewrites the records it changed: room left on each page lets an update stay on its page without
-- touching the indexes (a HOT update; no indexed column of a record ever changes). Pages written from now on.
ALTER TABLE "points_engine_records" SET (fillfactor = 70);
