module github.com/rankmetrics/rankmetrics

go 1.26.0
