CREATE TABLE stg.profiles (user_id STRING, attrs MAP<STRING,STRING>, tags ARRAY<STRING>,
  address STRUCT<city:STRING,zip:STRING>) STORED AS ORC;
INSERT OVERWRITE TABLE dw.user_city SELECT p.user_id, p.address.city AS city FROM stg.profiles p
