-- One Postgres for both servers: a database each (runs once, on an empty data volume).
CREATE DATABASE prefect;
CREATE DATABASE mlflow;
