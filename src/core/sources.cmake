# Sources of src/core (owned by that stage).
