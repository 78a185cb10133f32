echo ~root ~nosuchuser
