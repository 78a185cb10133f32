mkdir -p r/s; touch r/s/t; echo r/*/t; echo */*/t
