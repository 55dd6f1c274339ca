#!/bin/sh
# Walkthrough step (execution-service README, "Walkthrough: deploy jobs and trigger a chain"): says which job ran,
# for which bucket, and which batch its run produces for the jobs downstream.
echo "job $PIPEJOBID ran for bucket $BATCHYARD_BUCKET; its output is batch $BATCHYARD_TARGET_BATCH_ID"
