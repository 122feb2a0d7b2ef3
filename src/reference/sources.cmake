# Sources of src/reference (owned by that stage).
