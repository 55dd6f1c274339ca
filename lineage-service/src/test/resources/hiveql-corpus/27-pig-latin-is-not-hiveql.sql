A = LOAD '/data/orders' USING PigStorage(',') AS (id:int)
