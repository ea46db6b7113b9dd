import urllib.request

urllib.request.urlopen("http://example.com/", timeout=5)
