# Sources of src/api (owned by that stage).
