/// First and last names for demo students, from many places.
enum DemoNames {
    static let first = [
        "Ada", "Alan", "Grace", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances", "Tim", "Radia", "Vint",
        "Hedy", "Guido", "Katherine", "Bjarne", "Anita", "John", "Shafi", "Yukihiro", "Priya", "Arjun", "Mei", "Wei",
        "Sofia", "Mateo", "Lucía", "Diego", "Amara", "Kwame", "Chidi", "Fatima", "Omar", "Leila", "Yusuf", "Aylin",
        "Emre", "Ingrid", "Lars", "Sven", "Aino", "Mikko", "Zofia", "Jakub", "Olga", "Dmitri", "Hana", "Kenji",
        "Yuki", "Min-jun", "Ji-woo", "Thanh", "Linh", "Siti", "Rizal", "Maria", "José", "Chloé", "Lukas", "Giulia",
    ]
    static let last = [
        "Lovelace", "Turing", "Hopper", "Torvalds", "Hamilton", "Ritchie", "Liskov", "Thompson", "Allen",
        "Berners-Lee", "Perlman", "Cerf", "Lamarr", "van Rossum", "Johnson", "Stroustrup", "Borg", "McCarthy",
        "Goldwasser", "Matsumoto", "Sharma", "Patel", "Chen", "Zhang", "García", "Rodríguez", "Fernández", "López",
        "Okafor", "Mensah", "Adeyemi", "Haddad", "Khalil", "Yılmaz", "Demir", "Andersson", "Nilsson", "Virtanen",
        "Kowalski", "Nowak", "Ivanova", "Petrov", "Tanaka", "Suzuki", "Kim", "Park", "Nguyen", "Tran", "Santos",
        "Silva", "Müller", "Schmidt", "Dubois", "Rossi", "O'Brien", "Murphy", "Kaur", "Singh", "Wanjiru", "Abebe",
    ]
}
