-- The legs each solver was offered, kept with its answer for the public auction results. Rounds stored before keep
-- null: their legs were never recorded, and nothing can rebuild them.
ALTER TABLE "solver_answers" ADD COLUMN "offered_legs" jsonb;
