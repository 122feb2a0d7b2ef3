# Sources of src/analysis (owned by that stage).
